// A message, a thread and an id, on every way a message comes in (docs/security.md, "What a
// request may carry"), on SQLite and PostgreSQL: a text past STACKBONE_MAX_MESSAGE_CHARS is 413
// message_too_long on AG-UI, the OpenAI, Anthropic and Responses wires, the queue, guidance and
// the webhook; a thread whose log holds STACKBONE_MAX_THREAD_BYTES takes no new message
// (thread_full, saying how to go on) while a fork of it and a new thread do; the hydration JSON is
// the last page of messages, older pages by cursor; and an id no URL could carry — a NUL, which
// PostgreSQL's text cannot hold (once a 500 there) — is 400 on every write. Every refusal writes nothing.
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../server/credentials/open-dev-mode';
import { postRun, runInput, stopRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { countRows, eventually, readSessionEvents, readSessionRows } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const PORTS = { sqlite: 3381, postgres: 3382 } as const;
/** Room for a message at the text limit beside a few turns; the thread test fills it with long messages. */
const MAX_THREAD_BYTES = 250_000;
const MAX_MESSAGE_CHARS = 100_000;
const NUL_ID = 'a\u0000b';

const json = { 'content-type': 'application/json' };
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });
/** The error code of a JSON answer, in any wire's shape. */
async function codeOf(response: Response): Promise<string | undefined> {
  const body = (await response.json()) as { error?: { code?: string; details?: { error_code?: string } } };
  return body.error?.code ?? body.error?.details?.error_code;
}
/** What an AG-UI run's stream held: its event types, and its RUN_ERROR's code and message. */
function ended(run: Awaited<ReturnType<typeof postRun>>) {
  const error = run.events.find((event) => event.type === 'RUN_ERROR') as { code?: string; message?: string } | undefined;
  return { types: run.events.map((event) => event.type as string), error };
}

for (const { kind } of backends()) {
  describe(`a message, a thread and an id on ${kind}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      const databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_thread_limits');
      const ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-thread-limits-')), 'ledger.jsonl');
      server = await startServer({ port: PORTS[kind], databaseUrl, env: { ...fixtureEnv(ledgerFile), STACKBONE_MAX_THREAD_BYTES: String(MAX_THREAD_BYTES) } });
    }, 60_000);
    afterAll(async () => {
      await server?.kill();
    });

    /** A thread of the helpdesk agent with one finished turn; answers its id and its user message's. */
    async function thread(text = 'say 2 words') {
      const threadId = randomUUID();
      const message = userMessage(text);
      const run = await postRun(server.url, 'helpdesk', { ...runInput(threadId, text), messages: [message] });
      expect(run.events.at(-1)?.type).toBe('RUN_FINISHED');
      return { threadId, messageId: message.id };
    }
    /** A ledger thread whose turn is busy in its tool for a few seconds (guidance and the queue need one). */
    async function busyThread() {
      const threadId = randomUUID();
      const done = post(`${server.url}/api/agents/ledger`, runInput(threadId, `call noteEffect {"key":"${threadId}","sleepMs":15000}`), {
        accept: 'text/event-stream',
      }).then((response) => response.text());
      // Until its tool has started, the turn writes; then its log stands still while the tool works.
      await eventually(
        async () => (await readSessionEvents(server.databaseUrl, threadId)).some((event) => event.type === 'tool_started'),
        15_000,
        'the busy tool',
      );
      return { threadId, done };
    }
    const rowsOf = (threadId: string) => readSessionRows(server.databaseUrl, threadId, LOCAL_OWNER);

    it('a text past the most characters is 413 message_too_long on every wire, writing nothing; one at the limit goes in', async () => {
      const tooLong = 'x'.repeat(MAX_MESSAGE_CHARS + 1);
      const fresh = randomUUID();
      const agUi = await postRun(server.url, 'helpdesk', { ...runInput(fresh, tooLong) });
      expect([agUi.status, JSON.parse(agUi.text).error.code]).toEqual([413, 'message_too_long']);
      const session = { 'x-stackbone-session': fresh };
      const openAi = await post(`${server.url}/api/v1/chat/completions`, { model: 'helpdesk', messages: [{ role: 'user', content: tooLong }] }, session);
      expect([openAi.status, await codeOf(openAi)]).toEqual([413, 'message_too_long']);
      const anthropic = await post(
        `${server.url}/api/v1/messages`,
        { model: 'helpdesk', max_tokens: 16, messages: [{ role: 'user', content: tooLong }] },
        { ...session, 'anthropic-version': '2023-06-01' },
      );
      expect([anthropic.status, await codeOf(anthropic)]).toEqual([413, 'message_too_long']);
      // Without a session (a stateless turn) the request's history is its input: the same rule.
      const stateless = await post(`${server.url}/api/v1/chat/completions`, { model: 'helpdesk', messages: [{ role: 'user', content: tooLong }] });
      expect([stateless.status, await codeOf(stateless)]).toEqual([413, 'message_too_long']);
      const statelessAnthropic = await post(
        `${server.url}/api/v1/messages`,
        { model: 'helpdesk', max_tokens: 16, messages: [{ role: 'user', content: tooLong }] },
        { 'anthropic-version': '2023-06-01' },
      );
      expect([statelessAnthropic.status, await codeOf(statelessAnthropic)]).toEqual([413, 'message_too_long']);
      const responses = await post(`${server.url}/api/v1/responses`, { model: 'helpdesk', input: tooLong, store: true });
      expect([responses.status, await codeOf(responses)]).toEqual([413, 'message_too_long']);
      const webhook = await post(`${server.url}/api/webhooks/helpdesk`, { threadId: fresh, text: tooLong });
      expect([webhook.status, await codeOf(webhook)]).toEqual([413, 'message_too_long']);
      expect(await countRows(server.databaseUrl, fresh)).toEqual({ sessions: 0, events: 0 });

      // The queue (an add, an edit) and guidance, on a busy thread.
      const busy = await busyThread();
      const before = await rowsOf(busy.threadId);
      const queue = (body: Record<string, unknown>) => post(`${server.url}/api/agents/ledger/queue`, { threadId: busy.threadId, ...body });
      const add = await queue({ op: 'add', text: tooLong });
      expect([add.status, await codeOf(add)]).toEqual([413, 'message_too_long']);
      const steer = await post(`${server.url}/api/agents/ledger/steer`, { threadId: busy.threadId, text: tooLong });
      expect([steer.status, await codeOf(steer)]).toEqual([413, 'message_too_long']);
      expect(await rowsOf(busy.threadId)).toEqual(before);
      expect((await queue({ op: 'add', id: 'fits', text: 'y'.repeat(MAX_MESSAGE_CHARS) })).status).toBe(200);
      const edit = await queue({ op: 'edit', id: 'fits', text: tooLong });
      expect([edit.status, await codeOf(edit)]).toEqual([413, 'message_too_long']);
      expect((await queue({ op: 'remove', id: 'fits' })).status).toBe(200);
      await stopRun(server.url, 'ledger', { threadId: busy.threadId });
      await busy.done;

      // At the limit, a message goes in.
      const atLimit = await postRun(server.url, 'helpdesk', runInput(randomUUID(), 'z'.repeat(MAX_MESSAGE_CHARS)));
      expect(atLimit.events.at(-1)?.type).toBe('RUN_FINISHED');
    });

    it('a thread whose log is full takes no new message (409 thread_full, nothing written); a fork of it and a new thread do', async () => {
      const { threadId, messageId } = await thread();
      // Long messages until the log has no room for the next one: a message that would take it past the limit is refused.
      const long = `say 2 words ${'w'.repeat(60_000)}`;
      let refused: ReturnType<typeof ended> | undefined;
      for (let turn = 0; turn < 10 && !refused; turn++) {
        const end = ended(await postRun(server.url, 'helpdesk', runInput(threadId, long)));
        if (end.error) refused = end;
        else expect(end.types.at(-1)).toBe('RUN_FINISHED');
      }
      expect(refused?.types).toEqual(['RUN_STARTED', 'RUN_ERROR']);
      expect(refused?.error).toMatchObject({
        code: 'thread_full',
        message: expect.stringMatching(/Start a new thread, or fork this one at an earlier message/),
      });
      const full = await countRows(server.databaseUrl, threadId);
      const rows = await rowsOf(threadId);
      const again = await postRun(server.url, 'helpdesk', runInput(threadId, long));
      expect(ended(again).error?.code).toBe('thread_full');
      for (const [url, body] of [
        [`${server.url}/api/agents/helpdesk/queue`, { threadId, op: 'add', text: long }],
        [`${server.url}/api/webhooks/helpdesk`, { threadId, text: long }],
      ] as const) {
        const response = await post(url, body);
        expect([response.status, await codeOf(response)]).toEqual([409, 'thread_full']);
      }
      const chat = await post(
        `${server.url}/api/v1/chat/completions`,
        { model: 'helpdesk', messages: [{ role: 'user', content: long }] },
        {
          'x-stackbone-session': threadId,
        },
      );
      expect([chat.status, await codeOf(chat)]).toEqual([409, 'thread_full']);
      expect(await countRows(server.databaseUrl, threadId)).toEqual(full);
      expect(await rowsOf(threadId)).toEqual(rows);

      // The way on: a fork at an earlier message, which starts small, takes messages; so does a new thread.
      const forked = await post(`${server.url}/api/agents/helpdesk/fork`, { threadId, atMessageId: messageId });
      expect(forked.status).toBe(201);
      const fork = ((await forked.json()) as { threadId: string }).threadId;
      expect((await postRun(server.url, 'helpdesk', runInput(fork, 'say 2 words'))).events.at(-1)?.type).toBe('RUN_FINISHED');
      await thread();
    });

    it('the hydration JSON is the last page of messages; olderCursor pages back to the first, each message once', async () => {
      const threadId = randomUUID();
      const sent = Array.from({ length: 120 }, (_, i) => userMessage(`note ${i}`));
      const run = await postRun(server.url, 'helpdesk', { ...runInput(threadId, 'x'), messages: sent });
      expect(run.events.at(-1)?.type).toBe('RUN_FINISHED');
      const page = async (query: string) => {
        const response = await fetch(`${server.url}/api/agents/helpdesk?threadId=${threadId}${query}`, { headers: { accept: 'application/json' } });
        return {
          status: response.status,
          body: (await response.json()) as { messages: { id: string; role: string }[]; olderCursor: string | null; cursor: string },
        };
      };
      const whole = (await page('&limit=500')).body;
      expect(whole.messages).toHaveLength(121);
      expect(whole.olderCursor).toBeNull();
      const last = (await page('')).body;
      expect(last.messages).toEqual(whole.messages.slice(-100));
      expect(last.messages.at(-1)?.role).toBe('assistant');
      expect(last.olderCursor).toBe(last.messages[0]!.id);
      expect(last.cursor).toBe(whole.cursor);
      const older = (await page(`&before=${encodeURIComponent(last.olderCursor!)}`)).body;
      expect([...older.messages, ...last.messages]).toEqual(whole.messages);
      expect(older.olderCursor).toBeNull();
      expect(older.messages.map((message) => message.id)).toEqual(sent.slice(0, 21).map((message) => message.id));
      for (const [query, code] of [
        ['&before=nope', 'invalid_cursor'],
        ['&limit=0', 'invalid_request'],
        ['&limit=501', 'invalid_request'],
      ] as const) {
        const refused = await fetch(`${server.url}/api/agents/helpdesk?threadId=${threadId}${query}`, { headers: { accept: 'application/json' } });
        expect([refused.status, await codeOf(refused)]).toEqual([400, code]);
      }
    });

    it('an id with a NUL, or one too long, is 400 on every write path, never a 5xx, and writes nothing', async () => {
      const { threadId, messageId } = await thread();
      const busy = await busyThread();
      const before = await Promise.all([rowsOf(threadId), rowsOf(busy.threadId)]);
      const cases: [string, string, unknown, string][] = [
        ['queue add', '/api/agents/helpdesk/queue', { threadId, op: 'add', id: NUL_ID, text: 'hi' }, 'invalid_id'],
        ['queue remove', '/api/agents/helpdesk/queue', { threadId, op: 'remove', id: NUL_ID }, 'invalid_id'],
        ['queue edit', '/api/agents/helpdesk/queue', { threadId, op: 'edit', id: 'q'.repeat(257), text: 'hi' }, 'invalid_id'],
        ['session queue add', `/api/v1/sessions/${threadId}/queue`, { op: 'add', id: NUL_ID, text: 'hi' }, 'invalid_id'],
        ['guidance', '/api/agents/ledger/steer', { threadId: busy.threadId, id: NUL_ID, text: 'hi' }, 'invalid_id'],
        ['guidance run', '/api/agents/ledger/steer', { threadId: busy.threadId, runId: `r${NUL_ID}`, text: 'hi' }, 'invalid_run_id'],
        ['AG-UI message', '/api/agents/helpdesk', { ...runInput(threadId, 'hi'), messages: [{ id: NUL_ID, role: 'user', content: 'hi' }] }, 'invalid_id'],
        ['AG-UI parentRunId', '/api/agents/helpdesk', { ...runInput(threadId, 'hi'), parentRunId: NUL_ID }, 'invalid_run_id'],
        ['AG-UI retry', '/api/agents/helpdesk', { ...runInput(threadId, 'hi'), messages: [], forwardedProps: { retry: { retryId: NUL_ID } } }, 'invalid_id'],
        ['webhook', '/api/webhooks/helpdesk', { threadId, text: 'hi', id: NUL_ID }, 'invalid_id'],
        ['retry', `/api/v1/sessions/${threadId}/retry`, { retryId: NUL_ID }, 'invalid_id'],
        ['fork', '/api/agents/helpdesk/fork', { threadId, atMessageId: NUL_ID }, 'invalid_id'],
      ];
      for (const [what, route, body, code] of cases) {
        const response = await post(`${server.url}${route}`, body, { accept: 'text/event-stream, application/json' });
        expect([what, response.status, await codeOf(response)]).toEqual([what, 400, code]);
      }
      expect(await Promise.all([rowsOf(threadId), rowsOf(busy.threadId)])).toEqual(before);
      // The honest ids still work.
      expect((await post(`${server.url}/api/agents/helpdesk/queue`, { threadId, op: 'add', id: `ok-${messageId}`, text: 'say 1 word' })).status).toBe(200);
      const steered = await post(`${server.url}/api/agents/ledger/steer`, { threadId: busy.threadId, id: 'guidance-ok', text: 'and then stop' });
      expect(steered.status).toBe(202);
      await stopRun(server.url, 'ledger', { threadId: busy.threadId });
      await busy.done;
    });
  });
}
