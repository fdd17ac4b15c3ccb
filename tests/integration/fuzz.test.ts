// Generated malformed requests against every route of a real server (docs/security.md): wrong
// types, huge strings, deep nesting, keys named after Object.prototype's members in state,
// arguments and payloads, invalid ids, bad cookies, wrong content types. Whatever comes in: no
// answer is a 5xx, a refused request writes nothing, and the server stays up. Seeded and
// reproducible (fast-check); FUZZ_RUNS sets the requests per database (the full run:
// FUZZ_RUNS=2500, 5,000 requests over SQLite and Postgres), FUZZ_SEED the seed. Floods too
// (docs/security.md, "What a request may carry"): generated piles of messages and steers on a
// busy thread are refused with 429 past the limits, writing nothing, and texts made to wedge a
// regex do not slow the server (the scripted model is linear).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends';
import { countRows, eventually, readSessionEvents } from '../support/inspect';
import { readThread, stopRun } from '../support/agui';

const RUNS = Number(process.env.FUZZ_RUNS) || 100;
const SEED = Number(process.env.FUZZ_SEED) || 20_261_201;

type Json = unknown;

interface Route {
  method: 'GET' | 'POST';
  /** The path (with query) for a request on thread `tid`, with `id` a generated id. */
  path: (tid: string, id: string) => string;
  /** A well-formed body for thread `tid`, which the generator then mangles. */
  body?: (tid: string) => Record<string, Json>;
  headers?: (tid: string) => Record<string, string>;
}

const user = (content: string) => ({ id: randomUUID(), role: 'user', content });
const ROUTES: Route[] = [
  {
    method: 'POST',
    path: () => '/api/agents/helpdesk',
    body: (tid) => ({ threadId: tid, runId: randomUUID(), messages: [user('say 1 word')], tools: [], context: [], state: {}, forwardedProps: {} }),
  },
  {
    method: 'POST',
    path: () => '/api/agents/taskboard',
    body: (tid) => ({
      threadId: tid,
      runId: randomUUID(),
      messages: [user('say 1 word')],
      tools: [],
      context: [],
      state: { draft: 'x' },
      forwardedProps: {},
      resume: [{ interruptId: 'int_x', status: 'resolved', payload: {} }],
    }),
  },
  { method: 'POST', path: () => '/api/agents/taskboard/state', body: (tid) => ({ threadId: tid, state: { draft: 'x' } }) },
  { method: 'POST', path: () => '/api/agents/helpdesk/queue', body: (tid) => ({ threadId: tid, op: 'add', text: 'hi', id: randomUUID() }) },
  { method: 'POST', path: () => '/api/agents/helpdesk/queue', body: (tid) => ({ threadId: tid, op: 'remove', id: randomUUID() }) },
  { method: 'POST', path: () => '/api/agents/helpdesk/steer', body: (tid) => ({ threadId: tid, text: 'hi', id: randomUUID(), runId: randomUUID() }) },
  { method: 'POST', path: () => '/api/agents/helpdesk/stop', body: (tid) => ({ threadId: tid }) },
  { method: 'POST', path: () => '/api/agents/taskboard/decide', body: (tid) => ({ threadId: tid, interruptId: 'int_x', action: 'reject' }) },
  {
    method: 'POST',
    path: () => '/api/v1/chat/completions',
    body: () => ({ model: 'helpdesk', messages: [{ role: 'user', content: 'say 1 word' }] }),
    headers: (tid) => ({ 'x-stackbone-session': tid }),
  },
  {
    method: 'POST',
    path: () => '/api/v1/messages',
    body: () => ({ model: 'helpdesk', max_tokens: 16, messages: [{ role: 'user', content: 'say 1 word' }] }),
    headers: (tid) => ({ 'x-stackbone-session': tid, 'anthropic-version': '2023-06-01' }),
  },
  {
    method: 'POST',
    path: (_tid, id) => `/api/hitl/${encodeURIComponent(id)}/approve`,
    body: () => ({ editedArgs: { orderId: 'po_1', amount: 1 }, payload: { note: 'x' } }),
  },
  { method: 'POST', path: (_tid, id) => `/api/hitl/${encodeURIComponent(id)}/reject`, body: () => ({ reason: 'x' }) },
  { method: 'POST', path: () => '/api/webhooks/helpdesk', body: (tid) => ({ threadId: tid, text: 'hi', id: randomUUID() }) },
  { method: 'POST', path: (tid) => `/api/v1/sessions/${encodeURIComponent(tid)}/retry`, body: () => ({ retryId: 'r' }) },
  { method: 'POST', path: (tid) => `/api/v1/sessions/${encodeURIComponent(tid)}/queue`, body: () => ({ op: 'add', text: 'hi', id: randomUUID() }) },
  { method: 'GET', path: (_tid, id) => `/api/agents/helpdesk?threadId=${encodeURIComponent(id)}` },
  {
    method: 'GET',
    path: (tid, id) => `/api/agents/helpdesk?threadId=${encodeURIComponent(tid)}&before=${encodeURIComponent(id)}&limit=${encodeURIComponent(id)}`,
  },
  { method: 'GET', path: (_tid, id) => `/api/studio/sessions/${encodeURIComponent(id)}` },
  { method: 'GET', path: (_tid, id) => `/api/sessions?limit=${encodeURIComponent(id)}&agent=${encodeURIComponent(id)}` },
  { method: 'GET', path: (_tid, id) => `/api/v1/sessions/${encodeURIComponent(id)}` },
];

// ─── Generators ─────────────────────────────────────────────────────────────────────────

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(...PROTOTYPE_KEYS, '', ' ', '\u0000', '%', '%E0%A4%A', '../../etc/passwd', '<script>', 'int_x', '-1', 'NaN'),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
);
const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  hostileString,
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, true, 0, -1, 1e308, [], {}),
  fc.integer({ min: 65, max: 2_000 }).map((n) => ({ deep: n })), // marker: rendered as deep nesting below
  fc.constantFrom(...PROTOTYPE_KEYS).map((key) => ({ [`${key}`]: { draft: 'polluted' }, proto: key })),
);

/** A body: the route's own with fields replaced, removed or added, or something else entirely. */
function bodyArbitrary(template: Record<string, Json>): fc.Arbitrary<string> {
  const keys = Object.keys(template);
  const mangled = fc
    .record({
      replace: fc.array(fc.tuple(fc.constantFrom(...keys), hostileValue), { maxLength: 3 }),
      remove: fc.array(fc.constantFrom(...keys), { maxLength: 2 }),
      add: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 12 })), hostileValue), { maxLength: 2 }),
    })
    .map(({ replace, remove, add }) => {
      const parts: string[] = [];
      const entries = new Map<string, Json>(Object.entries(template));
      for (const [key, value] of replace) entries.set(key, value);
      for (const key of remove) entries.delete(key);
      for (const [key, value] of add) entries.set(key, value);
      for (const [key, value] of entries) parts.push(`${JSON.stringify(key)}:${render(value)}`);
      return `{${parts.join(',')}}`;
    });
  return fc.oneof(
    { weight: 6, arbitrary: mangled },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', 'null', '[]', '"x"', '{"threadId":', '\u0000', '{"a":1}}') },
  );
}

/** JSON text for a value; `{deep: n}` becomes n levels of nesting, `{__proto__…}` an own "__proto__" key. */
function render(value: Json): string {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, Json>;
    if (typeof record.deep === 'number' && Object.keys(record).length === 1) return `${'['.repeat(record.deep)}${']'.repeat(record.deep)}`;
    if (typeof record.proto === 'string') return `{${JSON.stringify(record.proto)}:{"draft":"polluted"},"draft":"x"}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-8', '') },
);
const cookie = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('stackbone_id=%', 'stackbone_id=a.b', 'stackbone_id=%E0%A4%A; x=1', '=;=;', '__proto__=1') },
);

const request = fc.integer({ min: 0, max: ROUTES.length - 1 }).chain((index) => {
  const route = ROUTES[index]!;
  const tid = `fuzz-${randomUUID()}`;
  return fc.record({
    index: fc.constant(index),
    tid: fc.constant(tid),
    id: fc.oneof(
      fc.constant(tid),
      hostileString.map((text) => text.slice(0, 400)),
    ),
    body: route.body ? bodyArbitrary(route.body(tid)) : fc.constant(undefined),
    contentType,
    cookie,
  });
});

// ─── The property ───────────────────────────────────────────────────────────────────────

for (const server of backends()) {
  describe(`fuzzing every route on ${server.kind}`, () => {
    it(`${RUNS} generated malformed requests: no 5xx, nothing written by a refusal, the server stays up`, async () => {
      let fiveHundreds = 0;
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(request, async ({ index, tid, id, body, contentType: type, cookie: jar }) => {
          const route = ROUTES[index]!;
          // GETs ask for JSON: a session stream would stay open.
          const headers: Record<string, string> = {
            accept: route.method === 'GET' ? 'application/json' : 'text/event-stream, application/json',
            ...(route.headers?.(tid) ?? {}),
          };
          if (body !== undefined && type) headers['content-type'] = type;
          if (jar) headers.cookie = jar;
          const response = await fetch(`${server.url}${route.path(tid, id)}`, { method: route.method, headers, body, signal: AbortSignal.timeout(20_000) });
          const text = await response.text();
          if (response.status >= 500) fiveHundreds++;
          expect(response.status, `${route.method} ${route.path(tid, id).slice(0, 120)} → ${response.status}: ${text.slice(0, 300)}`).toBeLessThan(500);
          // A refusal — an error status, or an AG-UI stream that is only RUN_STARTED then RUN_ERROR — writes nothing.
          const events = text
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => (JSON.parse(line.slice(6)) as { type?: string }).type);
          const refusedStream = events.length === 2 && events[0] === 'RUN_STARTED' && events[1] === 'RUN_ERROR';
          if (response.status >= 400 || refusedStream) {
            refused++;
            expect(await countRows(server.databaseUrl, tid), `${route.method} ${route.path(tid, id).slice(0, 120)} wrote rows`).toEqual({
              sessions: 0,
              events: 0,
            });
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      expect(fiveHundreds).toBe(0);
      expect(refused).toBeGreaterThan(RUNS / 2);
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);
      console.info(`[fuzz] ${server.kind}: ${RUNS} requests, ${refused} refused, 0 answers ≥ 500 (seed ${SEED})`);
    }, 600_000);

    it('floods on a busy thread: piles of new messages and steers past the limits are 429 and write nothing', async () => {
      const threadId = `flood-${randomUUID()}`;
      const busy = fetch(`${server.url}/api/agents/ledger`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({
          threadId,
          runId: randomUUID(),
          messages: [user('call noteEffect {"key":"flood","sleepMs":60000}')],
          tools: [],
          context: [],
          state: {},
          forwardedProps: {},
        }),
      }).then((response) => response.text());
      // Counted once the turn is in its tool: before that, its own step is still being written.
      await eventually(
        async () => (await readSessionEvents(server.databaseUrl, threadId)).some((event) => event.type === 'tool_started'),
        15_000,
        'the busy turn in its tool',
      );
      const before = await countRows(server.databaseUrl, threadId);
      const runs = Math.max(8, Math.floor(RUNS / 10));
      let floods = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 33, max: 2_000 }),
          hostileString.map((text) => text.slice(0, 2_000)),
          async (count, text) => {
            floods++;
            const messages = Array.from({ length: count }, () => user(text || 'x'));
            const response = await fetch(`${server.url}/api/agents/ledger`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
              body: JSON.stringify({ threadId, runId: randomUUID(), messages, tools: [], context: [], state: {}, forwardedProps: {} }),
              signal: AbortSignal.timeout(20_000),
            });
            const answer = await response.text();
            if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
              // Too big to read at all (more than STACKBONE_MAX_BODY_BYTES).
              expect(response.status).toBe(413);
            } else {
              const events = answer
                .split('\n')
                .filter((line) => line.startsWith('data: '))
                .map((line) => JSON.parse(line.slice(6)) as { type: string; code?: string });
              expect(events.map((event) => event.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
              expect(events[1]!.code).toMatch(/^(queue_full|too_many_messages)$/);
            }
            expect((await readThread(server.url, 'ledger', threadId)).body.queue).toEqual([]);
          },
        ),
        { numRuns: runs, seed: SEED, endOnFailure: true },
      );
      // Steers: the run takes the first 32, then 429 too_many_steers, each writing nothing more.
      const answers: number[] = [];
      for (let i = 0; i < 40; i++) {
        const response = await fetch(`${server.url}/api/agents/ledger/steer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ threadId, text: `guidance ${i}`, id: `steer-${i}` }),
        });
        answers.push(response.status);
        if (response.status === 429) expect(((await response.json()) as { error: { code: string } }).error.code).toBe('too_many_steers');
      }
      expect(answers.filter((status) => status === 202)).toHaveLength(32);
      expect(answers.filter((status) => status === 429)).toHaveLength(8);
      expect(await countRows(server.databaseUrl, threadId)).toEqual(before);
      await stopRun(server.url, 'ledger', { threadId });
      await busy;
      console.info(
        `[fuzz] ${server.kind}: ${floods} message floods (33 to 2,000 messages each) and 40 steers on a busy thread: every flood 429 or refused, 8 steers 429, 0 rows written by them`,
      );
    }, 120_000);

    it('texts made to wedge a regex (4,000 to 100,000 characters of separators) are answered at once, and the server stays quick for everyone else', async () => {
      const wedges = [
        ' '.repeat(4_000),
        'a , '.repeat(1_000),
        ' and'.repeat(1_000),
        `refund order ${'9'.repeat(10_000)}`,
        `call lookupOrder {${'['.repeat(50_000)}`,
        '. '.repeat(50_000),
        ' ; call '.repeat(5_000),
      ];
      let slowest = 0;
      for (const text of wedges) {
        const started = Date.now();
        const response = await fetch(`${server.url}/api/agents/helpdesk`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify({
            threadId: `wedge-${randomUUID()}`,
            runId: randomUUID(),
            messages: [user(text)],
            tools: [],
            context: [],
            state: {},
            forwardedProps: {},
          }),
          signal: AbortSignal.timeout(20_000),
        });
        // While the hostile text is read, another request is served promptly: the event loop is not blocked.
        const probeStarted = Date.now();
        const probe = await fetch(`${server.url}/api/health`);
        const probeMs = Date.now() - probeStarted;
        expect(probe.status).toBe(200);
        expect(response.status).toBeLessThan(500);
        await response.text();
        slowest = Math.max(slowest, Date.now() - started);
        expect(probeMs, `health answered in ${probeMs} ms beside a ${text.length}-character message`).toBeLessThan(2_000);
      }
      console.info(`[fuzz] ${server.kind}: ${wedges.length} regex-wedging texts, slowest answered in ${slowest} ms`);
    }, 120_000);
  });
}
