// Limits per identity (docs/security.md, "What a request may carry"): how many streams one owner
// keeps open at once (STACKBONE_MAX_STREAMS_PER_OWNER) and how many wrong API keys one client may
// send in a window (STACKBONE_MAX_FAILED_SIGN_INS per STACKBONE_SIGN_IN_WINDOW_SECONDS),
// each refused with 429 and its code. Set low here so that the test reaches them; the counts
// are kept in the server's memory, so one server (SQLite) shows them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunFinishedEvent } from '@ag-ui/core';
import { postRun, userMessage } from '../support/agui';
import { eventually } from '../support/inspect';
import { freshSqliteUrl } from '../support/database';
import { startServer, type TestServer } from '../support/server';

const MAX_STREAMS = 3;
const MAX_FAILED_SIGN_INS = 3;
const WINDOW_SECONDS = 2;

describe('limits per identity', () => {
  let server: TestServer;
  const opened: AbortController[] = [];
  beforeAll(async () => {
    server = await startServer({
      port: 3267,
      databaseUrl: await freshSqliteUrl(),
      env: {
        STACKBONE_API_KEYS: 'key-one-0123456789abcdef,key-two-0123456789abcdef',
        STACKBONE_SECRET: 'limits-secret-0123456789abcdef0123456789',
        STACKBONE_MAX_STREAMS_PER_OWNER: String(MAX_STREAMS),
        STACKBONE_MAX_FAILED_SIGN_INS: String(MAX_FAILED_SIGN_INS),
        STACKBONE_SIGN_IN_WINDOW_SECONDS: String(WINDOW_SECONDS),
      },
    });
  });
  afterAll(async () => {
    for (const controller of opened) controller.abort();
    await server?.kill();
  });

  /** A thread of `key`'s, and a way to open its session stream (open until aborted). */
  async function thread(key: string) {
    const threadId = randomUUID();
    const run = await postRun(
      server.url,
      'helpdesk',
      { threadId, runId: randomUUID(), messages: [userMessage('reply with 2 tokens')] },
      { authorization: `Bearer ${key}` },
    );
    expect(run.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    return async () => {
      const controller = new AbortController();
      opened.push(controller);
      const response = await fetch(`${server.url}/api/agents/helpdesk?threadId=${threadId}&offset=-1`, {
        headers: { authorization: `Bearer ${key}` },
        signal: controller.signal,
      });
      return { response, close: () => controller.abort() };
    };
  }

  it('one owner keeps at most STACKBONE_MAX_STREAMS_PER_OWNER streams open: the next is 429 too_many_streams until one closes; another owner is unaffected', async () => {
    const follow = await thread('key-one-0123456789abcdef');
    const streams = [];
    for (let i = 0; i < MAX_STREAMS; i++) {
      const stream = await follow();
      expect(stream.response.status).toBe(200);
      streams.push(stream);
    }
    const refused = await follow();
    expect(refused.response.status).toBe(429);
    expect((await refused.response.json()).error.code).toBe('too_many_streams');
    // A run is a stream too: refused before it starts, so nothing is written.
    const threadId = randomUUID();
    const run = await postRun(
      server.url,
      'helpdesk',
      { threadId, runId: randomUUID(), messages: [userMessage('hi')] },
      { authorization: 'Bearer key-one-0123456789abcdef' },
    );
    expect(run.status).toBe(429);
    expect((await fetch(`${server.url}/api/v1/sessions/${threadId}`, { headers: { authorization: 'Bearer key-one-0123456789abcdef' } })).status).toBe(404);
    // Studio's live feed counts as well.
    expect((await fetch(`${server.url}/api/studio/stream`, { headers: { authorization: 'Bearer key-one-0123456789abcdef' } })).status).toBe(429);
    // And a streamed chat-wire turn; a whole (non-streamed) answer is no stream.
    const chat = (stream: boolean) =>
      fetch(`${server.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer key-one-0123456789abcdef', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'helpdesk', stream, messages: [{ role: 'user', content: 'reply with 2 tokens' }] }),
      });
    const streamed = await chat(true);
    expect(streamed.status).toBe(429);
    expect((await streamed.json()).error.code).toBe('too_many_streams');
    expect((await chat(false)).status).toBe(200);

    // Another owner has its own streams.
    const theirs = await (await thread('key-two-0123456789abcdef'))();
    expect(theirs.response.status).toBe(200);
    theirs.close();

    // Closing one frees its slot (once the server has seen the connection go).
    streams[0]!.close();
    const reopened = await eventually(
      async () => {
        const stream = await follow();
        if (stream.response.status === 200) return stream;
        stream.close();
        return undefined;
      },
      10_000,
      'a slot to be freed',
    );
    expect(reopened.response.status).toBe(200);
    // A run whose stream ends gives its slot back by itself.
    reopened.close();
    streams[1]!.close();
    const paused = await eventually(
      async () => {
        const result = await postRun(
          server.url,
          'helpdesk',
          { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('reply with 2 tokens')] },
          { authorization: 'Bearer key-one-0123456789abcdef' },
        );
        return result.status === 200 ? result : undefined;
      },
      10_000,
      'slots to be freed',
    );
    expect((paused.events.at(-1) as RunFinishedEvent).type).toBe('RUN_FINISHED');
    for (let i = 0; i < MAX_STREAMS - 1; i++) expect((await follow()).response.status).toBe(200);
    expect((await follow()).response.status).toBe(429);
    for (const controller of opened) controller.abort();
  });

  it('wrong keys: after STACKBONE_MAX_FAILED_SIGN_INS from one client, 429 too_many_sign_ins with Retry-After, even for the right key, until the window has passed', async () => {
    const ask = (key: string, client = '203.0.113.7') =>
      fetch(`${server.url}/api/sessions`, { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': client } });
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) expect((await ask(`wrong-${i}-0123456789abcdef`)).status).toBe(401);
    // A wrong key is counted as it is refused, without holding up the answer.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const limited = await ask('wrong-again-0123456789abcdef');
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.code).toBe('too_many_sign_ins');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect((await ask('key-one-0123456789abcdef')).status).toBe(429);
    // Another client is not held back by this one's failures.
    expect((await ask('key-one-0123456789abcdef', '198.51.100.9')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 200));
    expect((await ask('key-one-0123456789abcdef')).status).toBe(200);
  });
});
