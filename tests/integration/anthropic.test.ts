// The Anthropic-compatible wire (docs/internals/wires.md) driven by the official `@anthropic-ai/sdk`, against
// real servers on SQLite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import Anthropic, { APIError, AuthenticationError, BadRequestError, ConflictError, InternalServerError, NotFoundError } from '@anthropic-ai/sdk';
import type { MessageParam, RawMessageStreamEvent, Tool } from '@anthropic-ai/sdk/resources/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { countRows, eventually } from '../support/inspect';
import { countingFetch, rejection } from '../support/sdk';
import { startServer, type TestServer } from '../support/server';

const THOUGHT = "The user wants my thoughts on launch timing. I'll weigh what matters most and answer in one line.";
const ANSWER = 'Here is what I think about launch timing: it is worth a closer look.';

const PENDING_MESSAGE = 'This conversation is waiting on a human decision. Resolve it before sending a new message.';

/** The official client (it sends Authorization: Bearer), pointed at a test server; `calls` counts its HTTP requests. */
function client(url: string, options: { session?: string; apiKey?: string } = {}) {
  const { calls, fetch } = countingFetch();
  const anthropic = new Anthropic({
    // The SDK appends /v1/messages itself.
    baseURL: `${url}/api`,
    apiKey: options.apiKey ?? 'dev-mode-needs-no-key',
    defaultHeaders: options.session ? { 'x-stackbone-session': options.session } : {},
    fetch,
  });
  return Object.assign(anthropic, { calls });
}

interface AnthropicSession {
  id: string;
  type: 'session';
  model: string;
  status: string;
  system?: string;
  messages: MessageParam[];
  pendingInterrupts: { id: string; tool_use_id: string; name: string; input: unknown; message: string }[];
}

/** Reads the session through the SDK's generic GET: it sends anthropic-version, so the answer is in Anthropic shape. */
const readSession = (anthropic: Anthropic, key: string) => anthropic.get<AnthropicSession>(`/v1/sessions/${encodeURIComponent(key)}`);

async function approveOutOfBand(url: string, sessionId: string) {
  const list = (await (await fetch(`${url}/api/hitl`)).json()) as { interrupts: { id: string; sessionId: string }[] };
  const pending = list.interrupts.filter((interrupt) => interrupt.sessionId === sessionId);
  expect(pending).toHaveLength(1);
  const response = await fetch(`${url}/api/hitl/${pending[0]!.id}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(response.status).toBe(200);
}

const textOf = (message: Anthropic.Message) => message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');

for (const server of backends()) {
  describe(`Anthropic wire on ${server.kind}`, () => {
    it('answers plain text with a text block, end_turn and usage; system as a string or as blocks', async () => {
      const anthropic = client(server.url);
      const before = await countRows(server.databaseUrl);
      for (const system of ['Be brief.', [{ type: 'text' as const, text: 'Be brief.' }], undefined]) {
        const message = await anthropic.messages.create({
          model: 'helpdesk',
          max_tokens: 1024,
          ...(system ? { system } : {}),
          messages: [{ role: 'user', content: 'hello there' }],
        });
        expect(message).toMatchObject({ type: 'message', role: 'assistant', model: 'helpdesk', stop_reason: 'end_turn', stop_sequence: null });
        expect(message.id).toMatch(/^msg_/);
        expect(message.content).toHaveLength(1);
        expect(message.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('You said: "hello there"') });
        expect(message.usage.input_tokens).toBeGreaterThan(0);
        expect(message.usage.output_tokens).toBeGreaterThan(0);
      }
      // Text blocks in a user turn work too.
      const blocks = await anthropic.messages.create({
        model: 'helpdesk',
        max_tokens: 1024,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hello blocks' }] }],
      });
      expect(textOf(blocks)).toContain('You said: "hello blocks"');
      expect((await countRows(server.databaseUrl)).sessions).toBe(before.sessions);
    });

    it('streams the Messages API event types, and the SDK accumulates the same message', async () => {
      const anthropic = client(server.url);
      const stream = await anthropic.messages.create({
        model: 'helpdesk',
        max_tokens: 1024,
        stream: true,
        messages: [{ role: 'user', content: 'reply with 12 tokens' }],
      });
      const events: RawMessageStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      const types = events.map((event) => event.type);
      expect(types[0]).toBe('message_start');
      expect(types.slice(1, 2)).toEqual(['content_block_start']);
      expect(types.filter((type) => type === 'content_block_delta')).toHaveLength(12);
      expect(types.slice(-4)).toEqual(['content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
      const deltas = events.flatMap((event) => (event.type === 'content_block_delta' && event.delta.type === 'text_delta' ? [event.delta.text] : []));
      expect(deltas.join('')).toBe(Array.from({ length: 12 }, (_, i) => `token${i + 1}`).join(' '));
      const delta = events.find((event) => event.type === 'message_delta');
      expect(delta).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 12 } });

      const helper = anthropic.messages.stream({ model: 'helpdesk', max_tokens: 1024, messages: [{ role: 'user', content: 'say 3 words' }] });
      const texts: string[] = [];
      helper.on('text', (text) => texts.push(text));
      const final = await helper.finalMessage();
      expect(texts.join('')).toBe('token1 token2 token3');
      expect(final).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: 'token1 token2 token3' }] });
      expect(final.usage.input_tokens).toBeGreaterThan(0);
    });

    it("answers a model's reasoning as a thinking block with its signature, streamed and whole, and reports cache reads", async () => {
      const anthropic = client(server.url, { session: randomUUID() });
      // A turn first: the next one reads it again, partly from the (scripted) cache.
      await anthropic.messages.create({ model: 'helpdesk', max_tokens: 1024, messages: [{ role: 'user', content: 'hello' }] });
      const helper = anthropic.messages.stream({ model: 'helpdesk', max_tokens: 1024, messages: [{ role: 'user', content: 'think about launch timing' }] });
      const events: RawMessageStreamEvent[] = [];
      helper.on('streamEvent', (event) => events.push(event));
      const thinking: string[] = [];
      helper.on('thinking', (delta) => thinking.push(delta));
      const final = await helper.finalMessage();
      expect(thinking.join('')).toBe(THOUGHT);
      expect(final.content).toEqual([
        { type: 'thinking', thinking: THOUGHT, signature: expect.stringContaining('scripted-sig-') },
        expect.objectContaining({ type: 'text', text: ANSWER }),
      ]);
      const deltaTypes = events.flatMap((event) => (event.type === 'content_block_delta' ? [event.delta.type] : []));
      expect(deltaTypes.indexOf('signature_delta')).toBe(deltaTypes.lastIndexOf('thinking_delta') + 1);
      expect(final.usage.output_tokens).toBe(THOUGHT.split(' ').length + ANSWER.split(' ').length);
      expect(final.usage.cache_read_input_tokens).toBeGreaterThan(0);

      // Whole, the thinking block comes first; a client sending the thinking back with its history is fine.
      const message = await anthropic.messages.create({
        model: 'helpdesk',
        max_tokens: 1024,
        messages: [
          { role: 'user', content: 'think about launch timing' },
          {
            role: 'assistant',
            content: final.content.map((block) => (block.type === 'text' ? { type: 'text' as const, text: block.text } : block)) as MessageParam['content'],
          },
          { role: 'user', content: 'think about launch timing' },
        ],
      });
      expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text']);
      expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: THOUGHT });
    });

    it('stateless: a refund (the helpdesk agent denies gated tools statelessly) does not run; the reply says how to get a durable turn; nothing is stored', async () => {
      const anthropic = client(server.url);
      const before = await countRows(server.databaseUrl);
      const message = await anthropic.messages.create({
        model: 'helpdesk',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'refund order po_42 for 19.99' }],
      });
      expect(message.stop_reason).toBe('end_turn');
      expect(message.content.every((block) => block.type === 'text')).toBe(true);
      expect(textOf(message)).toMatch(
        /^I couldn't refund payment: refundPayment needs a person's approval by a key holder, and a stateless request cannot wait for one\. Send the header x-stackbone-session/,
      );
      expect((await countRows(server.databaseUrl)).sessions).toBe(before.sessions);
    });

    it("stateless: an ordinary approval's tool runs without pausing (nothing could wake a pause)", async () => {
      const anthropic = client(server.url);
      const key = `stateless-${randomUUID()}`;
      const message = await anthropic.messages.create({
        model: 'ledger',
        max_tokens: 1024,
        messages: [{ role: 'user', content: `call recordEffect {"key":"${key}"}` }],
      });
      expect(textOf(message)).toBe(`Record effect — recorded: ${key}; attempt: 1.`);
      expect(readLedger(server.ledgerFile).filter((line) => line.kind === 'effect' && line.key === key)).toHaveLength(1);
    });

    it('durable: approval streams as tool_use, 409 approval_pending (readable from the SDK error) until decided, then the session moves on', async () => {
      const key = randomUUID();
      const anthropic = client(server.url, { session: key });

      // 1. The gated call streams as a tool_use block; stop_reason tool_use.
      const stream = anthropic.messages.stream({ model: 'helpdesk', max_tokens: 1024, messages: [{ role: 'user', content: 'refund order po_42 for 19.99' }] });
      const events: RawMessageStreamEvent[] = [];
      stream.on('streamEvent', (event) => events.push(event));
      const paused = await stream.finalMessage();
      expect(paused.stop_reason).toBe('tool_use');
      const toolUse = paused.content.find((block) => block.type === 'tool_use');
      expect(toolUse).toMatchObject({ type: 'tool_use', name: 'refundPayment', input: { orderId: 'po_42', amount: 19.99 } });
      expect(events.map((event) => event.type)).toEqual([
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ]);
      expect(events[2]).toMatchObject({ delta: { type: 'input_json_delta' } });

      const session = await readSession(anthropic, key);
      expect(session).toMatchObject({ id: key, type: 'session', model: 'helpdesk', status: 'interrupted' });
      expect(session.pendingInterrupts).toEqual([
        expect.objectContaining({
          tool_use_id: toolUse!.type === 'tool_use' && toolUse!.id,
          name: 'refundPayment',
          input: { orderId: 'po_42', amount: 19.99 },
        }),
      ]);

      // 2. Every call is refused before doing any work while the decision is pending.
      const before = await countRows(server.databaseUrl, key);
      anthropic.calls.count = 0;
      const conflict = await rejection(
        anthropic.messages.create({ model: 'helpdesk', max_tokens: 1024, messages: [{ role: 'user', content: 'are you there?' }] }),
        ConflictError,
      );
      expect(conflict.status).toBe(409);
      expect(conflict.errorCode).toBe('approval_pending');
      expect(conflict.type).toBe('invalid_request_error');
      expect(conflict.apiMessage).toBe(PENDING_MESSAGE);
      expect(conflict.details).toMatchObject({ error_code: 'approval_pending' });
      expect(conflict.error).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: PENDING_MESSAGE, details: { error_code: 'approval_pending' } },
      });
      expect(anthropic.calls.count).toBe(1);
      const streamed = await rejection(
        anthropic.messages.create({ model: 'helpdesk', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: 'hello?' }] }),
        ConflictError,
      );
      expect(streamed.errorCode).toBe('approval_pending');
      expect(await countRows(server.databaseUrl, key)).toEqual(before);

      // 3. Approved out of band; the continuation's output lands in the session.
      await approveOutOfBand(server.url, key);
      const resumed = await eventually(
        async () => {
          const current = await readSession(anthropic, key);
          return current.status === 'idle' && current.messages.at(-1)?.role === 'assistant' && current;
        },
        15_000,
        'the continuation',
      );
      expect(resumed.pendingInterrupts).toEqual([]);
      expect(resumed.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(resumed.messages[2]!.content).toEqual([
        expect.objectContaining({ type: 'tool_result', tool_use_id: toolUse!.type === 'tool_use' && toolUse!.id }),
      ]);
      expect(JSON.stringify(resumed.messages[3]!.content)).toMatch(/Refunded \$19\.99 on order po_42 \(refund re_[\w-]+\)\./);

      // 4. The next call succeeds.
      const next = await anthropic.messages.create({ model: 'helpdesk', max_tokens: 1024, messages: [{ role: 'user', content: 'look up order po_42' }] });
      expect(next.stop_reason).toBe('end_turn');
      expect(textOf(next)).toBe('Order po_42 — Analytical Engine manual for Ada Lovelace, delivered, $19.99.');
    });

    it('client tools: tool_use for the request tools, tool_result blocks continue the turn (durable and stateless)', async () => {
      const tools: Tool[] = [
        {
          name: 'showDialog',
          description: 'Shows a dialog in the client.',
          input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        },
      ];
      for (const session of [randomUUID(), undefined]) {
        const anthropic = client(server.url, { session });
        const messages: MessageParam[] = [{ role: 'user', content: 'call showDialog {"text":"Ship it?"}' }];
        const first = await anthropic.messages.create({ model: 'helpdesk', max_tokens: 1024, messages, tools });
        expect(first.stop_reason).toBe('tool_use');
        const toolUse = first.content.find((block) => block.type === 'tool_use');
        if (toolUse?.type !== 'tool_use') throw new Error('expected a tool_use block');
        expect(toolUse).toMatchObject({ name: 'showDialog', input: { text: 'Ship it?' } });

        messages.push(
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: [{ type: 'text', text: 'the user clicked yes' }] }] },
        );
        const second = await anthropic.messages.create({ model: 'helpdesk', max_tokens: 1024, messages, tools });
        expect(second.stop_reason).toBe('end_turn');
        expect(textOf(second)).toBe('The user clicked yes.');
        if (session) {
          const stored = await readSession(anthropic, session);
          expect(stored.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
          expect(stored.messages[2]!.content).toEqual([{ type: 'tool_result', tool_use_id: toolUse.id, content: 'the user clicked yes' }]);
        }
      }
    });

    it('errors come in the Anthropic shape with the right status and type, and write nothing', async () => {
      const anthropic = client(server.url);
      const before = await countRows(server.databaseUrl);

      const unknown = await rejection(
        anthropic.messages.create({ model: 'claude-nobody', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
        NotFoundError,
      );
      expect(unknown).toMatchObject({ status: 404, type: 'not_found_error', errorCode: 'model_not_found' });

      const wrongType = await rejection(
        anthropic.messages.create({ model: 'helpdesk', max_tokens: 10, messages: [{ role: 'user', content: 42 as never }] }),
        BadRequestError,
      );
      expect(wrongType.type).toBe('invalid_request_error');
      expect(wrongType.apiMessage).toMatch(/^messages\.0\.content: /);
      const badMaxTokens = await rejection(
        anthropic.messages.create({ model: 'helpdesk', max_tokens: 'many' as never, messages: [{ role: 'user', content: 'hi' }] }),
        BadRequestError,
      );
      expect(badMaxTokens.apiMessage).toMatch(/^max_tokens: /);
      const image = await rejection(
        anthropic.messages.create({
          model: 'helpdesk',
          max_tokens: 10,
          messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/x.png' } }] }],
        }),
        BadRequestError,
      );
      expect(image.apiMessage).toMatch(/^messages\.0\.content\.0\.type: /);
      const orphan = await rejection(
        anthropic.messages.create({
          model: 'helpdesk',
          max_tokens: 10,
          messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_nowhere', content: 'x' }] }],
        }),
        BadRequestError,
      );
      expect(orphan.apiMessage).toMatch(/toolu_nowhere/);

      const post = (body: string, headers: Record<string, string> = {}) =>
        fetch(`${server.url}/api/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
          body,
        });
      const malformed = await post('{"model": ');
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.stringContaining('not valid JSON'), details: { error_code: 'invalid_json' } },
      });
      const huge = await post(JSON.stringify({ model: 'helpdesk', max_tokens: 10, messages: [{ role: 'user', content: 'x'.repeat(1_100_000) }] }));
      expect(huge.status).toBe(413);
      expect(await huge.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
      const unknownSession = await rejection(anthropic.get('/v1/sessions/no-such-session'), NotFoundError);
      expect(unknownSession).toMatchObject({ type: 'not_found_error', errorCode: 'session_not_found' });
      const nowhere = await fetch(`${server.url}/api/v1/complete`, { method: 'POST', headers: { 'anthropic-version': '2023-06-01' } });
      expect(nowhere.status).toBe(404);
      expect(await nowhere.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });

      expect((await countRows(server.databaseUrl)).sessions).toBe(before.sessions);
    });

    it('a failing model: 500 api_error without SDK retries, or an error event mid-stream after the text so far', async () => {
      const anthropic = client(server.url);
      const failed = await rejection(
        anthropic.messages.create({ model: 'helpdesk', max_tokens: 10, messages: [{ role: 'user', content: 'fail' }] }),
        InternalServerError,
      );
      expect(failed).toMatchObject({ status: 500, type: 'api_error', errorCode: 'model_error' });
      expect(anthropic.calls.count).toBe(1);

      const stream = anthropic.messages.stream({ model: 'helpdesk', max_tokens: 10, messages: [{ role: 'user', content: 'fail after 3 tokens' }] });
      const texts: string[] = [];
      stream.on('text', (text) => texts.push(text));
      const error = await stream.finalMessage().catch((caught: unknown) => caught);
      expect(texts.join('')).toBe('token1 token2 token3');
      expect(error).toBeInstanceOf(APIError);
      expect(error).toMatchObject({ type: 'api_error', errorCode: 'model_error' });
    });

    it('lists the agents in the Models API shape for Anthropic clients', async () => {
      const anthropic = client(server.url);
      const models = [];
      for await (const model of anthropic.models.list()) models.push(model);
      expect(models.map((model) => model.id)).toEqual(expect.arrayContaining(['helpdesk', 'taskboard', 'librarian']));
      expect(models[0]).toMatchObject({ type: 'model', display_name: expect.any(String), created_at: expect.any(String) });
      expect(await anthropic.models.retrieve('helpdesk')).toMatchObject({ type: 'model', id: 'helpdesk' });
    });
  });

  describe(`Anthropic wire with STACKBONE_API_KEYS on ${server.kind}`, () => {
    let keyed: TestServer;
    beforeAll(async () => {
      const databaseUrl = server.kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_anthropic_keys');
      keyed = await startServer({
        port: server.kind === 'sqlite' ? 3223 : 3224,
        databaseUrl,
        env: { STACKBONE_API_KEYS: 'key-one-0123456789abcdef,key-two-0123456789abcdef', STACKBONE_SECRET: 'test-secret-0123456789abcdef0123456789' },
      });
    });
    afterAll(async () => {
      await keyed?.kill();
    });

    it('accepts x-api-key and Authorization: Bearer; 401 authentication_error otherwise', async () => {
      const body = JSON.stringify({ model: 'helpdesk', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
      const post = (headers: Record<string, string>) =>
        fetch(`${keyed.url}/api/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
          body,
        });

      const viaHeader = await post({ 'x-api-key': 'key-one-0123456789abcdef' });
      expect(viaHeader.status).toBe(200);
      expect(((await viaHeader.json()) as Anthropic.Message).stop_reason).toBe('end_turn');
      const viaBearer = await post({ authorization: 'Bearer key-two-0123456789abcdef' });
      expect(viaBearer.status).toBe(200);

      const none = await post({});
      expect(none.status).toBe(401);
      expect(await none.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error', details: { error_code: 'invalid_api_key' } } });

      const sdk = client(keyed.url, { apiKey: 'key-one-0123456789abcdef' });
      expect(textOf(await sdk.messages.create({ model: 'helpdesk', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }))).toContain('You said: "hi"');
      const wrong = await rejection(
        client(keyed.url, { apiKey: 'nope' }).messages.create({ model: 'helpdesk', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
        AuthenticationError,
      );
      expect(wrong).toMatchObject({ status: 401, type: 'authentication_error', errorCode: 'invalid_api_key' });
    });

    it("a session belongs to its key: to another key the session key names nothing, and using it starts that key's own conversation", async () => {
      const key = randomUUID();
      await client(keyed.url, { apiKey: 'key-one-0123456789abcdef', session: key }).messages.create({
        model: 'helpdesk',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      });
      const unknown = await rejection(readSession(client(keyed.url, { apiKey: 'key-two-0123456789abcdef' }), key), NotFoundError);
      expect(unknown).toMatchObject({ type: 'not_found_error', errorCode: 'session_not_found' });
      const theirs = await client(keyed.url, { apiKey: 'key-two-0123456789abcdef', session: key }).messages.create({
        model: 'helpdesk',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'reply with 2 tokens' }],
      });
      expect(theirs.content).toMatchObject([{ type: 'text', text: 'token1 token2' }]);
      expect((await readSession(client(keyed.url, { apiKey: 'key-two-0123456789abcdef' }), key)).messages).toHaveLength(2);
      const mine = await readSession(client(keyed.url, { apiKey: 'key-one-0123456789abcdef' }), key);
      expect(JSON.stringify(mine.messages)).not.toContain('reply with 2 tokens');
      expect(mine.messages).toHaveLength(2);
    });
  });
}
