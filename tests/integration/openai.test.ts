// The OpenAI-compatible wire (docs/internals/wires.md) driven by the official `openai` SDK, against real
// servers on SQLite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import OpenAI, { APIError, AuthenticationError, BadRequestError, ConflictError, InternalServerError, NotFoundError } from 'openai';
import type { ChatCompletionChunk, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { countRows, eventually } from '../support/inspect';
import { countingFetch, rejection } from '../support/sdk';
import { startServer, type TestServer } from '../support/server';

const THOUGHT = "The user wants my thoughts on launch timing. I'll weigh what matters most and answer in one line.";
const ANSWER = 'Here is what I think about launch timing: it is worth a closer look.';

const APPROVAL_PENDING = {
  error: {
    message: 'This conversation is waiting on a human decision. Resolve it before sending a new message.',
    type: 'invalid_request_error',
    param: null,
    code: 'approval_pending',
  },
};

/** The official client, pointed at a test server; `calls` counts the HTTP requests it made. */
function client(url: string, options: { session?: string; apiKey?: string } = {}) {
  const { calls, fetch } = countingFetch();
  const openai = new OpenAI({
    baseURL: `${url}/api/v1`,
    apiKey: options.apiKey ?? 'dev-mode-needs-no-key',
    defaultHeaders: options.session ? { 'x-stackbone-session': options.session } : {},
    fetch,
  });
  return Object.assign(openai, { calls });
}

interface OpenAiSession {
  id: string;
  object: string;
  model: string;
  status: string;
  messages: (ChatCompletionMessageParam & { id: string })[];
  pendingInterrupts: { id: string; tool_call_id: string; name: string; arguments: string; message: string }[];
}

async function readSession(url: string, key: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/api/v1/sessions/${encodeURIComponent(key)}`, { headers });
  return { status: response.status, body: (await response.json()) as OpenAiSession & { error?: { code: string } } };
}

/** Approves the session's one pending decision out of band, as a human would (docs/hitl.md). */
async function approveOutOfBand(url: string, sessionId: string) {
  const list = (await (await fetch(`${url}/api/hitl`)).json()) as { interrupts: { id: string; sessionId: string }[] };
  const pending = list.interrupts.filter((interrupt) => interrupt.sessionId === sessionId);
  expect(pending).toHaveLength(1);
  const response = await fetch(`${url}/api/hitl/${pending[0]!.id}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(response.status).toBe(200);
  return pending[0]!.id;
}

for (const server of backends()) {
  describe(`OpenAI wire on ${server.kind}`, () => {
    it('lists the agents as models and retrieves one', async () => {
      const openai = client(server.url);
      const models = [];
      for await (const model of openai.models.list()) models.push(model);
      expect(models.map((model) => model.id)).toEqual(expect.arrayContaining(['helpdesk', 'taskboard', 'librarian']));
      expect(models[0]).toMatchObject({ object: 'model', owned_by: 'stackbone', created: expect.any(Number) });
      expect(await openai.models.retrieve('taskboard')).toMatchObject({ id: 'taskboard', object: 'model' });
      const missing = await rejection(openai.models.retrieve('nobody'), NotFoundError);
      expect(missing.code).toBe('model_not_found');
    });

    it('answers plain text without streaming, with usage, and stores nothing without a session', async () => {
      const openai = client(server.url);
      const before = await countRows(server.databaseUrl);
      const completion = await openai.chat.completions.create({
        model: 'helpdesk',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hello there' },
        ],
      });
      expect(completion.object).toBe('chat.completion');
      expect(completion.id).toMatch(/^chatcmpl-/);
      expect(completion.model).toBe('helpdesk');
      expect(completion.choices[0]!.finish_reason).toBe('stop');
      expect(completion.choices[0]!.message.role).toBe('assistant');
      expect(completion.choices[0]!.message.content).toContain('You said: "hello there"');
      expect(completion.choices[0]!.message.tool_calls).toBeUndefined();
      expect(completion.usage!.prompt_tokens).toBeGreaterThan(0);
      expect(completion.usage!.completion_tokens).toBeGreaterThan(0);
      expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
      // Whole-database counts: sessions only (other files' expiry sweeps may append to their own sessions).
      expect((await countRows(server.databaseUrl)).sessions).toBe(before.sessions);
    });

    it("streams a model's reasoning as reasoning_content, and reports its reasoning and cached tokens", async () => {
      const session = randomUUID();
      const openai = client(server.url, { session });
      // A turn first: the next one reads it again, partly from the (scripted) cache.
      await openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'hello' }] });
      const stream = await openai.chat.completions.create({
        model: 'helpdesk',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'think about launch timing' }],
      });
      const chunks: ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta as { content?: string | null; reasoning_content?: string }));
      expect(deltas.map((delta) => delta.reasoning_content ?? '').join('')).toBe(THOUGHT);
      expect(deltas.map((delta) => delta.content ?? '').join('')).toBe(ANSWER);
      const usage = chunks.at(-1)!.usage!;
      expect(usage.completion_tokens_details!.reasoning_tokens).toBe(THOUGHT.split(' ').length);
      expect(usage.completion_tokens).toBe(THOUGHT.split(' ').length + ANSWER.split(' ').length);
      expect(usage.prompt_tokens_details!.cached_tokens).toBeGreaterThan(0);
      expect(usage.prompt_tokens_details!.cached_tokens).toBeLessThan(usage.prompt_tokens);
      expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);

      // Whole, the reasoning rides beside the content; and the session read shows it on its message.
      const completion = await openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'think about launch timing' }] });
      expect(completion.choices[0]!.message).toMatchObject({ content: ANSWER, reasoning_content: THOUGHT });
      const { body } = await readSession(server.url, session);
      expect(body.messages.at(-1)).toMatchObject({ role: 'assistant', content: ANSWER, reasoning_content: THOUGHT });
    });

    it('streams chunks token by token, ends with [DONE], and reports usage when asked', async () => {
      const openai = client(server.url);
      const stream = await openai.chat.completions.create({
        model: 'helpdesk',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'reply with 20 tokens' }],
      });
      const chunks: ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.id === chunks[0]!.id)).toBe(true);
      expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
      const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')).filter(Boolean);
      expect(deltas).toHaveLength(20);
      expect(deltas.join('')).toBe(Array.from({ length: 20 }, (_, i) => `token${i + 1}`).join(' '));
      const finish = chunks.find((chunk) => chunk.choices[0]?.finish_reason);
      expect(finish!.choices[0]!.finish_reason).toBe('stop');
      const last = chunks.at(-1)!;
      expect(last.choices).toEqual([]);
      expect(last.usage!.completion_tokens).toBe(20);

      // The SDK's own accumulator agrees.
      const helper = openai.chat.completions.stream({ model: 'helpdesk', messages: [{ role: 'user', content: 'say 5 words' }] });
      const final = await helper.finalChatCompletion();
      expect(final.choices[0]!.message.content).toBe('token1 token2 token3 token4 token5');
    });

    it('runs a server tool freely inside the turn: only its effect is visible', async () => {
      const openai = client(server.url);
      const completion = await openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'look up order po_42' }] });
      expect(completion.choices[0]!.finish_reason).toBe('stop');
      expect(completion.choices[0]!.message.tool_calls).toBeUndefined();
      expect(completion.choices[0]!.message.content).toBe('Order po_42 — Analytical Engine manual for Ada Lovelace, delivered, $19.99.');
    });

    it("stateless: an ordinary approval's tool runs without pausing; a refund (statelessApproval 'deny', key holders) does not, and the reply names the session header", async () => {
      const openai = client(server.url);
      const before = await countRows(server.databaseUrl);
      const key = `stateless-${randomUUID()}`;
      const ran = await openai.chat.completions.create({ model: 'ledger', messages: [{ role: 'user', content: `call recordEffect {"key":"${key}"}` }] });
      expect(ran.choices[0]!.finish_reason).toBe('stop');
      expect(ran.choices[0]!.message.tool_calls).toBeUndefined();
      expect(ran.choices[0]!.message.content).toBe(`Record effect — recorded: ${key}; attempt: 1.`);
      expect(readLedger(server.ledgerFile).filter((line) => line.kind === 'effect' && line.key === key)).toHaveLength(1);

      const refused = await openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'refund order po_42 for 19.99' }] });
      expect(refused.choices[0]!.finish_reason).toBe('stop');
      expect(refused.choices[0]!.message.content).toMatch(
        /^I couldn't refund payment: refundPayment needs .*a stateless request cannot wait for one\. Send the header x-stackbone-session/,
      );
      // Whole-database counts: sessions only (other files' expiry sweeps may append to their own sessions).
      expect((await countRows(server.databaseUrl)).sessions).toBe(before.sessions);
    });

    it('durable: approval pauses the turn, 409 until a human decides out of band, then the session moves on', async () => {
      const key = randomUUID();
      const openai = client(server.url, { session: key });

      // 1. The gated call streams as an ordinary tool call and the turn stops.
      const stream = await openai.chat.completions.create({
        model: 'helpdesk',
        stream: true,
        messages: [{ role: 'user', content: 'refund order po_42 for 19.99' }],
      });
      const chunks: ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ index: 0, id: expect.any(String), type: 'function', function: { name: 'refundPayment' } });
      expect(JSON.parse(calls[0]!.function!.arguments!)).toEqual({ orderId: 'po_42', amount: 19.99 });
      expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)!.choices[0]!.finish_reason).toBe('tool_calls');

      const paused = await readSession(server.url, key);
      expect(paused.status).toBe(200);
      expect(paused.body).toMatchObject({ id: key, object: 'stackbone.session', model: 'helpdesk', status: 'interrupted' });
      expect(paused.body.pendingInterrupts).toEqual([
        expect.objectContaining({ tool_call_id: calls[0]!.id, name: 'refundPayment', message: 'Refund $19.99 on order po_42' }),
      ]);

      // 2. While the decision is pending every call is refused before any work: 409, nothing appended, no SDK retry.
      const before = await countRows(server.databaseUrl, key);
      openai.calls.count = 0;
      const conflict = await rejection(
        openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'are you there?' }] }),
        ConflictError,
      );
      expect(conflict.status).toBe(409);
      expect(conflict.code).toBe('approval_pending');
      expect(conflict.type).toBe('invalid_request_error');
      expect(conflict.error).toEqual(APPROVAL_PENDING.error);
      expect(openai.calls.count).toBe(1);
      const streamed = await rejection(
        openai.chat.completions.create({ model: 'helpdesk', stream: true, messages: [{ role: 'user', content: 'hello?' }] }),
        ConflictError,
      );
      expect(streamed.code).toBe('approval_pending');
      const raw = await fetch(`${server.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-stackbone-session': key },
        body: JSON.stringify({ model: 'helpdesk', messages: [{ role: 'user', content: 'anyone?' }] }),
      });
      expect(raw.status).toBe(409);
      expect(await raw.json()).toEqual(APPROVAL_PENDING);
      expect(await countRows(server.databaseUrl, key)).toEqual(before);

      // 3. A human approves out of band; the continuation runs on the server after the response.
      await approveOutOfBand(server.url, key);
      const resumed = await eventually(
        async () => {
          const { body } = await readSession(server.url, key);
          const last = body.messages.at(-1);
          return body.status === 'idle' && last?.role === 'assistant' && body;
        },
        15_000,
        'the continuation',
      );
      expect(resumed.pendingInterrupts).toEqual([]);
      expect(resumed.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(resumed.messages[1]).toMatchObject({ tool_calls: [{ id: calls[0]!.id, function: { name: 'refundPayment' } }] });
      expect(resumed.messages[2]).toMatchObject({ role: 'tool', tool_call_id: calls[0]!.id });
      expect(JSON.parse(String(resumed.messages[2]!.content))).toMatchObject({ refunded: true, orderId: 'po_42', amount: 19.99 });
      expect(String(resumed.messages[3]!.content)).toMatch(/^Refunded \$19\.99 on order po_42 \(refund re_[\w-]+\)\./);

      // 4. The next call succeeds; the server's history, not the request's, is the truth.
      const next = await openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'look up order po_42' }] });
      expect(next.choices[0]!.finish_reason).toBe('stop');
      expect(next.choices[0]!.message.content).toContain('Order po_42 — Analytical Engine manual');
      const after = await readSession(server.url, key);
      expect(after.body.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
        'refund order po_42 for 19.99',
        'look up order po_42',
      ]);
    });

    it('durable: a client that echoes its whole history (and its own result for the approved call) adds only the new message', async () => {
      const key = randomUUID();
      const openai = client(server.url, { session: key });
      const history: ChatCompletionMessageParam[] = [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: 'close ticket T-7' },
      ];
      const first = await openai.chat.completions.create({ model: 'helpdesk', messages: history });
      expect(first.choices[0]!.finish_reason).toBe('tool_calls');
      const call = first.choices[0]!.message.tool_calls![0]!;
      expect(call.type === 'function' && call.function.name).toBe('closeTicket');
      await approveOutOfBand(server.url, key);
      await eventually(async () => (await readSession(server.url, key)).body.status === 'idle', 15_000, 'the continuation');

      const before = (await readSession(server.url, key)).body.messages;
      history.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: 'done on my side' }, { role: 'user', content: 'hello again' });
      const second = await openai.chat.completions.create({ model: 'helpdesk', messages: history });
      expect(second.choices[0]!.message.content).toContain('You said: "hello again"');
      const after = (await readSession(server.url, key)).body.messages;
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.slice(before.length).map((message) => message.role)).toEqual(['user', 'assistant']);
      expect(after.some((message) => message.content === 'done on my side' || message.role === 'system')).toBe(false);
    });

    it('client tools: request tools come back as tool_calls and their role "tool" results continue the turn (durable and stateless)', async () => {
      const tools = [
        {
          type: 'function' as const,
          function: {
            name: 'showDialog',
            description: 'Shows a dialog in the client.',
            parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          },
        },
      ];
      for (const session of [randomUUID(), undefined]) {
        const openai = client(server.url, { session });
        const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'call showDialog {"text":"Ship it?"}' }];
        const first = await openai.chat.completions.create({ model: 'helpdesk', messages, tools });
        expect(first.choices[0]!.finish_reason).toBe('tool_calls');
        const call = first.choices[0]!.message.tool_calls![0]!;
        if (call.type !== 'function') throw new Error('expected a function call');
        expect(call.function.name).toBe('showDialog');
        expect(JSON.parse(call.function.arguments)).toEqual({ text: 'Ship it?' });

        messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: 'the user clicked yes' });
        const second = await openai.chat.completions.create({ model: 'helpdesk', messages, tools });
        expect(second.choices[0]!.finish_reason).toBe('stop');
        expect(second.choices[0]!.message.content).toBe('The user clicked yes.');
        if (session) {
          const { body } = await readSession(server.url, session);
          expect(body.status).toBe('idle');
          expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
          expect(body.messages[2]).toMatchObject({ role: 'tool', tool_call_id: call.id, content: 'the user clicked yes' });
        }
      }
    });

    it('durable: a message sent while the session waits for a client tool result is a 409 that writes nothing', async () => {
      const key = randomUUID();
      const openai = client(server.url, { session: key });
      const tools = [{ type: 'function' as const, function: { name: 'readClipboard', parameters: { type: 'object', properties: {} } } }];
      const first = await openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'call readClipboard' }], tools });
      expect(first.choices[0]!.finish_reason).toBe('tool_calls');
      const before = await countRows(server.databaseUrl, key);
      const conflict = await rejection(
        openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'never mind' }], tools }),
        ConflictError,
      );
      expect(conflict.code).toBe('tool_result_missing');
      expect(await countRows(server.databaseUrl, key)).toEqual(before);
    });

    it('errors come in OpenAI shape with the right status, naming the field, and write nothing', async () => {
      const openai = client(server.url);
      const before = await countRows(server.databaseUrl);

      const unknown = await rejection(openai.chat.completions.create({ model: 'gpt-nobody', messages: [{ role: 'user', content: 'hi' }] }), NotFoundError);
      expect(unknown).toMatchObject({ status: 404, code: 'model_not_found', param: 'model', type: 'invalid_request_error' });

      const wrongType = await rejection(openai.chat.completions.create({ model: 'helpdesk', messages: 'hello' as never }), BadRequestError);
      expect(wrongType.param).toBe('messages');
      expect(wrongType.message).toContain('messages');
      const wrongContent = await rejection(
        openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 42 as never }] }),
        BadRequestError,
      );
      expect(wrongContent.param).toBe('messages[0].content');
      const badRole = await rejection(
        openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'wizard', content: 'x' } as never] }),
        BadRequestError,
      );
      expect(badRole.param).toBe('messages[0].role');
      const unanswered = await rejection(
        openai.chat.completions.create({
          model: 'helpdesk',
          messages: [
            { role: 'user', content: 'x' },
            { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
            { role: 'user', content: 'y' },
          ],
        }),
        BadRequestError,
      );
      expect(unanswered.param).toBe('messages[1]');
      const shadow = await rejection(
        openai.chat.completions.create({
          model: 'helpdesk',
          messages: [{ role: 'user', content: 'x' }],
          tools: [{ type: 'function', function: { name: 'refundPayment' } }],
        }),
        BadRequestError,
      );
      expect(shadow.param).toBe('tools[0].function.name');

      const post = (body: string, headers: Record<string, string> = {}) =>
        fetch(`${server.url}/api/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      const malformed = await post('{"model": "helpdesk", ');
      expect(malformed.status).toBe(400);
      expect(malformed.headers.get('content-type')).toContain('application/json');
      expect(((await malformed.json()) as { error: object }).error).toMatchObject({
        type: 'invalid_request_error',
        code: 'invalid_json',
        param: null,
        message: expect.stringContaining('not valid JSON'),
      });

      const huge = await post(JSON.stringify({ model: 'helpdesk', messages: [{ role: 'user', content: 'x'.repeat(1_100_000) }] }));
      expect(huge.status).toBe(413);
      expect(((await huge.json()) as { error: object }).error).toMatchObject({ type: 'invalid_request_error', code: 'request_too_large' });

      const badKey = await post(JSON.stringify({ model: 'helpdesk', messages: [{ role: 'user', content: 'x' }] }), { 'x-stackbone-session': 'has spaces' });
      expect(badKey.status).toBe(400);
      expect(((await badKey.json()) as { error: object }).error).toMatchObject({ param: 'x-stackbone-session' });

      const nothingNew = await post(
        JSON.stringify({
          model: 'helpdesk',
          messages: [
            { role: 'user', content: 'x' },
            { role: 'assistant', content: 'y' },
          ],
        }),
        { 'x-stackbone-session': randomUUID() },
      );
      expect(nothingNew.status).toBe(400);
      expect(((await nothingNew.json()) as { error: object }).error).toMatchObject({ code: 'no_new_input', param: 'messages' });

      const wrongMethod = await fetch(`${server.url}/api/v1/chat/completions`);
      expect(wrongMethod.status).toBe(405);
      expect(((await wrongMethod.json()) as { error: object }).error).toMatchObject({ code: 'method_not_allowed' });
      const nowhere = await fetch(`${server.url}/api/v1/embeddings`, { method: 'POST' });
      expect(nowhere.status).toBe(404);
      expect(((await nowhere.json()) as { error: object }).error).toMatchObject({ code: 'unknown_endpoint' });

      const noSession = await readSession(server.url, randomUUID());
      expect(noSession.status).toBe(404);
      expect(noSession.body.error!.code).toBe('session_not_found');

      // Whole-database counts: sessions only (other files' expiry sweeps may append to their own sessions).
      expect((await countRows(server.databaseUrl)).sessions).toBe(before.sessions);
    });

    it('a failing model: 500 server_error without SDK retries, or an error chunk mid-stream after the text so far', async () => {
      const openai = client(server.url);
      const failed = await rejection(openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'fail' }] }), InternalServerError);
      expect(failed).toMatchObject({ status: 500, type: 'server_error', code: 'model_error' });
      expect(openai.calls.count).toBe(1);

      const stream = await openai.chat.completions.create({ model: 'helpdesk', stream: true, messages: [{ role: 'user', content: 'fail after 3 tokens' }] });
      const deltas: string[] = [];
      const error = await (async () => {
        for await (const chunk of stream) if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
      })().catch((caught: unknown) => caught);
      expect(deltas.join('')).toBe('token1 token2 token3');
      expect(error).toBeInstanceOf(APIError);
      expect(error).toMatchObject({ code: 'model_error', type: 'server_error' });
    });

    it('a session of another agent is a 409 agent_mismatch', async () => {
      const key = randomUUID();
      await client(server.url, { session: key }).chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'hi' }] });
      const mismatch = await rejection(
        client(server.url, { session: key }).chat.completions.create({ model: 'taskboard', messages: [{ role: 'user', content: 'hi' }] }),
        ConflictError,
      );
      expect(mismatch.code).toBe('agent_mismatch');
    });
  });

  describe(`OpenAI wire with STACKBONE_API_KEYS on ${server.kind}`, () => {
    let keyed: TestServer;
    beforeAll(async () => {
      const databaseUrl = server.kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_openai_keys');
      keyed = await startServer({
        port: server.kind === 'sqlite' ? 3221 : 3222,
        databaseUrl,
        env: { STACKBONE_API_KEYS: 'key-one-0123456789abcdef, key-two-0123456789abcdef', STACKBONE_SECRET: 'test-secret-0123456789abcdef0123456789' },
      });
    });
    afterAll(async () => {
      await keyed?.kill();
    });

    it('401 without a key or with a wrong one; a key owns its sessions, and another key using the same session key gets a session of its own', async () => {
      const noKey = await fetch(`${keyed.url}/api/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(noKey.status).toBe(401);
      expect(await noKey.json()).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });

      const wrong = await rejection(
        client(keyed.url, { apiKey: 'nope' }).chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'hi' }] }),
        AuthenticationError,
      );
      expect(wrong.code).toBe('invalid_api_key');
      await rejection(client(keyed.url, { apiKey: 'nope' }).models.list(), AuthenticationError);

      const key = randomUUID();
      const one = client(keyed.url, { apiKey: 'key-one-0123456789abcdef', session: key });
      const first = await one.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'hi' }] });
      expect(first.choices[0]!.message.content).toContain('You said: "hi"');
      expect((await readSession(keyed.url, key, { authorization: 'Bearer key-one-0123456789abcdef' })).status).toBe(200);
      expect((await readSession(keyed.url, key, { 'x-api-key': 'key-one-0123456789abcdef' })).status).toBe(200);

      // Key two has not used the key: to it, there is no such session.
      expect((await readSession(keyed.url, key, { authorization: 'Bearer key-two-0123456789abcdef' })).status).toBe(404);
      // Using it starts key two's own conversation: it sees nothing of key one's, and key one's is untouched.
      const two = client(keyed.url, { apiKey: 'key-two-0123456789abcdef', session: key });
      const second = await two.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'reply with 2 tokens' }] });
      expect(second.choices[0]!.message.content).toBe('token1 token2');
      const theirs = (await readSession(keyed.url, key, { authorization: 'Bearer key-two-0123456789abcdef' })).body as { messages: { content: unknown }[] };
      expect(theirs.messages.map((message) => message.content)).toEqual(['reply with 2 tokens', 'token1 token2']);
      const mine = (await readSession(keyed.url, key, { authorization: 'Bearer key-one-0123456789abcdef' })).body as { messages: { content: unknown }[] };
      expect(mine.messages.map((message) => message.content)).toEqual(['hi', expect.stringContaining('You said: "hi"')]);
      expect((await readSession(keyed.url, key)).status).toBe(401);
    });
  });
}
