// Tenant isolation (issue 21; docs/security.md, "Owners and their ids" and "Approvers"): four
// tenants on one keyed server — two API keys and two browsers with identity cookies
// (STACKBONE_WEB_ACCESS=open) — and, for each pair, the owner makes real objects (threads, a
// running run with a queued message behind it, paused approvals, timers, a draft) and the other
// sends every endpoint that takes an id the owner's ids. Two things are asserted for each:
//   - no effect: what the store keeps of the owner's sessions (the log and everything beside it:
//     interrupts, stops, steers, queue, timers), the fixture ledger and the refund ledger are as
//     they were, the running run finishes unstopped and unsteered, the queue goes out unchanged;
//   - no disclosure: the intruder's answer for the owner's id is the answer for an id nobody used
//     (same status, code and body once ids are normalised), and nothing of the owner's shows in it.
// The same request is sent in two worlds — the owner's ids and fresh ones — in the same order,
// so a request that creates something (a POST to the owner's threadId) is compared with the
// same request on a fresh id: both make the intruder's own new thread.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { BaseEvent, RunFinishedEvent } from '@ag-ui/core';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateEvent } from '../support/agui';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { eventually, readSessionEvents, readSessionRows } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';
import { newGuest } from '../support/guest';

const PORTS = { sqlite: 3271, postgres: 3272 } as const;
/** 32 bytes or more, as a keyed server requires (docs/security.md, "Modes"). */
const SECRET = 'tenant-isolation-secret-0123456789abcdef';
/** What a cron job presents (docs/turn-control.md, "Timers"); it is no API key. */
const CRON_SECRET = 'tenant-isolation-cron-0123456789abcdef';
/**
 * How long each owner's run runs: through every intrusion on it. They take 6–8 s on SQLite and
 * 10–13 s on Postgres on a loaded 2-core machine, and up to 20 s beside another integration
 * file and a type check; the run outlasts them with room to spare.
 */
const OWNER_RUN_MS = 30_000;

interface Tenant {
  name: string;
  kind: 'key' | 'browser';
  ownerId: string;
  headers: Record<string, string>;
}

/** What an endpoint answered: JSON, the events of an SSE stream, or a page's HTML. */
interface Answer {
  status: number;
  body: unknown;
}

/** The ids a request names, by role: an owner's, or fresh ones nobody used. */
type Ids = Record<IdName, string>;
const THREADS = ['idle', 'failed', 'paused', 'refund', 'planner', 'timer', 'timerSoon', 'running'] as const;
type ThreadName = (typeof THREADS)[number];
type IdName = ThreadName | 'runId' | 'queueId' | 'messageId' | 'closeInterrupt' | 'refundInterrupt';

const keyOwnerId = (key: string) => `key:${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const enc = encodeURIComponent;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * An answer with its ids taken out, to compare the answer for an owner's id with the answer for
 * an unused one: each id the request named becomes its role (`<idle>`, `<runId>`), every other
 * uuid a placeholder numbered by first appearance (so two answers naming the same new id twice
 * still match, and one naming two different ids does not), server ids (`call_…`) and times alike.
 */
function normaliseIds(value: unknown, ids: Partial<Ids>): unknown {
  let text = JSON.stringify(value) ?? 'null';
  for (const [name, id] of Object.entries(ids).sort((a, b) => b[1]!.length - a[1]!.length)) text = text.split(id!).join(`<${name}>`);
  const seen = new Map<string, string>();
  const numbered = (prefix: string) => (match: string) => {
    if (!seen.has(match)) seen.set(match, `<${prefix}${seen.size + 1}>`);
    return seen.get(match)!;
  };
  text = text.replace(UUID, numbered('uuid'));
  text = text.replace(/\b(?:call|chatcmpl|msg|str|tmr|req|ref)_[A-Za-z0-9_-]+/g, numbered('sid'));
  text = text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>');
  text = text.replace(/(\\?"(?:timestamp|created|updated|createdAt|updatedAt|requestedAt|ms)\\?":)\d+/g, (_match, field: string) => `${field}0`);
  return JSON.parse(text);
}

/** Reads an AG-UI SSE answer until it ends, `until` says enough, or nothing came for quietMs (a stream that stays open). */
async function readEvents(response: Response, options: { until?: (event: BaseEvent) => boolean; quietMs?: number } = {}): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    while (true) {
      const next = reader.read();
      const result = options.quietMs ? await Promise.race([next, sleep(options.quietMs).then(() => 'quiet' as const)]) : await next;
      if (result === 'quiet' || result.done) break;
      const event = validateEvent(JSON.parse(result.value.data));
      events.push(event);
      if (options.until?.(event)) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return events;
}

interface SendOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** How to read an SSE answer (default: to its end). */
  until?: (event: BaseEvent) => boolean;
  quietMs?: number;
}

function client(server: TestServer) {
  const counts = { requests: 0 };
  async function send(tenant: Tenant, method: 'GET' | 'POST', pathname: string, options: SendOptions = {}): Promise<Answer> {
    counts.requests++;
    const headers: Record<string, string> = {
      ...tenant.headers,
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    };
    // A browser's POST comes from the app's own pages (docs/security.md, "Browsers").
    if (tenant.kind === 'browser' && method === 'POST') headers.origin = server.url;
    const response = await fetch(`${server.url}${pathname}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      redirect: 'manual',
    });
    const type = response.headers.get('content-type') ?? '';
    if (type.startsWith('text/event-stream'))
      return { status: response.status, body: await readEvents(response, { until: options.until, quietMs: options.quietMs }) };
    const text = await response.text();
    if (type.includes('json')) return { status: response.status, body: JSON.parse(text) };
    return { status: response.status, body: text };
  }
  return { send, counts };
}

type Send = ReturnType<typeof client>['send'];

const user = (content: string, id: string = randomUUID()) => ({ id, role: 'user', content });
const runBody = (threadId: string, content: string, extra: Record<string, unknown> = {}) => ({
  threadId,
  runId: randomUUID(),
  messages: [user(content)],
  ...extra,
});
const lastEvent = (answer: Answer) => (answer.body as BaseEvent[]).at(-1);

/** One owner's objects: its tenant, the marker in everything it wrote, and its ids. */
interface OwnerWorld {
  tenant: Tenant;
  marker: string;
  ids: Ids;
  /** The agent of each thread. */
  agents: Record<ThreadName, string>;
  /** What the owner queued behind its running turn. */
  queuedText: string;
  /** The owner's running run's stream, read to its end. */
  running?: Promise<BaseEvent[]>;
}

/** The tally of one database: every request sent with an owner's ids, every effect and every difference found. */
interface Figures {
  intrusions: number;
  controls: number;
  effects: string[];
  differences: string[];
  leaks: string[];
}

for (const { kind } of backends()) {
  describe(`tenant isolation on ${kind}`, () => {
    let server: TestServer;
    let send: Send;
    let ledgerFile: string;
    const tenants = {} as Record<'keyOne' | 'keyTwo' | 'browserA' | 'browserB', Tenant>;
    const figures: Figures = { intrusions: 0, controls: 0, effects: [], differences: [], leaks: [] };
    const owners = {} as Record<'keyOne' | 'browserA', OwnerWorld>;
    /** The unused ids each intruder was given for an owner, with what it did at them: a later probe compares like with like. */
    const controls = new Map<string, Ids>();

    beforeAll(async () => {
      const databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_tenant_isolation');
      ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-isolation-')), 'ledger.jsonl');
      server = await startServer({
        port: PORTS[kind],
        databaseUrl,
        env: {
          ...fixtureEnv(ledgerFile),
          // Hundreds of requests at once on 2 slow cores can delay a heartbeat past the fixtures'
          // 3 s lease; recovery would then take the owner's run over and run it again, which is
          // recovery working, not an intrusion. The production default is 30 s.
          STACKBONE_LEASE_MS: '20000',
          STACKBONE_API_KEYS: 'key-one-0123456789abcdef,key-two-0123456789abcdef',
          STACKBONE_SECRET: SECRET,
          STACKBONE_WEB_ACCESS: 'open',
          CRON_SECRET,
        },
      });
      send = client(server).send;
      const browser = async (name: string): Promise<Tenant> => {
        const { cookie, ownerId } = await newGuest(server.url);
        return { name, kind: 'browser', ownerId, headers: { cookie } };
      };
      tenants.keyOne = {
        name: 'key-one-0123456789abcdef',
        kind: 'key',
        ownerId: keyOwnerId('key-one-0123456789abcdef'),
        headers: { authorization: 'Bearer key-one-0123456789abcdef' },
      };
      tenants.keyTwo = {
        name: 'key-two-0123456789abcdef',
        kind: 'key',
        ownerId: keyOwnerId('key-two-0123456789abcdef'),
        headers: { authorization: 'Bearer key-two-0123456789abcdef' },
      };
      tenants.browserA = await browser('browser A');
      tenants.browserB = await browser('browser B');
    });
    afterAll(async () => {
      console.log(
        `[tenant isolation, ${kind}] ${figures.intrusions} intrusion requests (and ${figures.controls} alike at unused ids): ` +
          `${figures.effects.length} effects on the owners' objects, ${figures.differences.length} refusals that differ from "does not exist", ${figures.leaks.length} answers showing an owner's data`,
      );
      await server?.kill();
    });

    /** The owner makes its objects: idle, failed and paused threads, a draft, timers. The running run comes later (it must run during the intrusions). */
    async function makeOwnerWorld(tenant: Tenant, runningAgent: 'helpdesk' | 'ledger'): Promise<OwnerWorld> {
      const marker = `secret-${randomUUID()}`;
      const ids = freshIds();
      const agents = { ...Object.fromEntries(THREADS.map((name) => [name, 'helpdesk'])), planner: 'taskboard', running: runningAgent } as Record<
        ThreadName,
        string
      >;
      const run = (thread: ThreadName, text: string, messageId?: string) =>
        send(tenant, 'POST', `/api/agents/${agents[thread]}`, { body: { threadId: ids[thread], runId: randomUUID(), messages: [user(text, messageId)] } });
      const pause = async (thread: ThreadName, text: string) => {
        const outcome = (lastEvent(await run(thread, text)) as RunFinishedEvent).outcome;
        if (outcome?.type !== 'interrupt') throw new Error(`${tenant.name}: expected a pause on "${text}", got ${JSON.stringify(outcome)}`);
        return outcome.interrupts[0]!.id;
      };
      const [idle, failed, closeInterrupt, refundInterrupt, draft, timer, timerSoon] = await Promise.all([
        run('idle', `hello ${marker}`, ids.messageId),
        run('failed', 'fail'),
        pause('paused', 'close ticket T-7'),
        pause('refund', 'refund order po_42 for 19.99'),
        send(tenant, 'POST', '/api/agents/taskboard/state', { body: { threadId: ids.planner, state: { draft: `draft ${marker}` } } }),
        run('timer', `remind me in 600 seconds to check ${marker}`),
        // Due during the test: it must fire into the owner's session, and only there.
        run('timerSoon', `remind me in 8 seconds to check ${marker}`),
      ]);
      expect(lastEvent(idle)).toMatchObject({ type: 'RUN_FINISHED' });
      expect(lastEvent(failed)).toMatchObject({ type: 'RUN_ERROR', code: 'model_error' });
      expect(draft.status).toBe(200);
      for (const reminder of [timer, timerSoon]) expect(lastEvent(reminder)).toMatchObject({ type: 'RUN_FINISHED' });
      if (tenant.kind === 'key') {
        // A key's session also carries a chat-wire turn (the OpenAI wire, x-stackbone-session).
        const wire = await send(tenant, 'POST', '/api/v1/chat/completions', {
          headers: { 'x-stackbone-session': ids.idle },
          body: { model: 'helpdesk', messages: [{ role: 'user', content: `again ${marker}` }] },
        });
        expect(wire.status).toBe(200);
      }
      return { tenant, marker, ids: { ...ids, closeInterrupt, refundInterrupt }, agents, queuedText: `queued ${marker}` };
    }

    /** The owner's run that runs through the intrusions, with a message queued behind it. */
    async function startRunning(owner: OwnerWorld) {
      const { tenant, ids, agents } = owner;
      const text =
        agents.running === 'ledger' ? `call noteEffect {"key":"${owner.marker}","sleepMs":${OWNER_RUN_MS}}` : `slowly reply with ${OWNER_RUN_MS / 50} tokens`;
      const response = fetch(`${server.url}/api/agents/${agents.running}`, {
        method: 'POST',
        headers: {
          ...tenant.headers,
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(tenant.kind === 'browser' ? { origin: server.url } : {}),
        },
        body: JSON.stringify({ threadId: ids.running, runId: ids.runId, messages: [user(text)] }),
      });
      owner.running = response.then((answer) => readEvents(answer));
      await eventually(
        async () =>
          ((await send(tenant, 'GET', `/api/agents/${agents.running}?threadId=${enc(ids.running)}`)).body as { status?: string }).status === 'running',
        10_000,
        `${tenant.name}'s run to be running`,
      );
      if (agents.running === 'ledger')
        await eventually(async () => (await readFile(ledgerFile, 'utf8').catch(() => '')).includes(owner.marker), 10_000, 'the noted effect');
      const queued = await send(tenant, 'POST', `/api/agents/${agents.running}/queue`, {
        body: { threadId: ids.running, op: 'add', id: ids.queueId, text: owner.queuedText },
      });
      expect(queued).toMatchObject({ status: 200, body: { queue: [{ id: ids.queueId, content: owner.queuedText }] } });
    }

    /** What the store keeps of the owner's sessions and the ledger file (the helpdesk's refunds too): equal before and after, or something had an effect. */
    async function ownerSnapshot(owner: OwnerWorld) {
      const sessions = Object.fromEntries(
        await Promise.all(
          THREADS.filter((name) => name !== 'timerSoon').map(
            async (name) => [name, await readSessionRows(server.databaseUrl, owner.ids[name], owner.tenant.ownerId)] as const,
          ),
        ),
      );
      return { sessions, ledger: await readFile(ledgerFile, 'utf8').catch(() => '') };
    }

    function recordEffects(owner: OwnerWorld, before: Awaited<ReturnType<typeof ownerSnapshot>>, after: Awaited<ReturnType<typeof ownerSnapshot>>) {
      for (const name of Object.keys(before.sessions) as ThreadName[]) {
        for (const part of Object.keys(before.sessions[name]!)) {
          if (!isDeepStrictEqual(before.sessions[name]![part], after.sessions[name]![part])) {
            figures.effects.push(
              `${owner.tenant.name}'s ${name} thread: ${part} changed from ${JSON.stringify(before.sessions[name]![part])} to ${JSON.stringify(after.sessions[name]![part])}`,
            );
          }
        }
      }
      if (before.ledger !== after.ledger) figures.effects.push(`the fixture ledger changed: ${JSON.stringify(after.ledger.slice(before.ledger.length))}`);
    }

    /**
     * Sends the same request with the owner's ids and with fresh ones, compares the two answers
     * once normalised, and checks that the answer for the owner's ids shows nothing of the owner.
     * `retries`: for answers that show the intruder's own changing list (a page's sidebar), a
     * difference is asked again before it counts.
     */
    async function probe(
      label: string,
      owner: OwnerWorld,
      fresh: Ids,
      request: (ids: Ids) => Promise<Answer>,
      options: { retries?: number; compare?: (answer: Answer) => unknown } = {},
    ) {
      for (let attempt = 0; ; attempt++) {
        const [theirs, control] = await Promise.all([request(owner.ids), request(fresh)]);
        figures.intrusions++;
        figures.controls++;
        const shape = options.compare ?? ((answer: Answer) => answer);
        const a = normaliseIds(shape(theirs), owner.ids);
        const b = normaliseIds(shape(control), fresh);
        const text = JSON.stringify(theirs);
        if (text.includes(owner.marker) || text.includes(owner.tenant.ownerId))
          figures.leaks.push(`${label}: the answer shows the owner's ${text.includes(owner.marker) ? 'content' : 'owner id'}: ${text.slice(0, 400)}`);
        if (isDeepStrictEqual(a, b)) return { theirs, control };
        if (attempt >= (options.retries ?? 0)) {
          figures.differences.push(`${label}: ${firstDifference(JSON.stringify(a), JSON.stringify(b))}`);
          return { theirs, control };
        }
        await sleep(300);
      }
    }

    /** Every surface the intruder can name the owner's ids on, in two worlds. */
    async function intrude(owner: OwnerWorld, intruder: Tenant) {
      const fresh = freshIds();
      const label = (what: string) => `${intruder.name} on ${owner.tenant.name}'s ${what}`;
      const on = (what: string, request: (ids: Ids) => Promise<Answer>, options?: Parameters<typeof probe>[4]) =>
        probe(label(what), owner, fresh, request, options);
      const agent = owner.agents;
      const X = intruder;
      // A key holder may decide a browser's call kept for key holders (docs/security.md,
      // "Approvers"): that is allowed, and tested on its own below, not as an intrusion.
      const mayDecideRefund = X.kind === 'key' && owner.tenant.kind === 'browser';

      // The lists: nothing of the owner's, but a browser's refund for a key holder.
      const hitl = await send(X, 'GET', '/api/hitl');
      figures.intrusions++;
      if (X.kind === 'browser') expect(hitl.status).toBe(401);
      else {
        const listed = (hitl.body as { interrupts: { id: string }[] }).interrupts.map((entry) => entry.id);
        const seen = [owner.ids.closeInterrupt, owner.ids.refundInterrupt].filter((id) => listed.includes(id));
        if (!isDeepStrictEqual(seen, mayDecideRefund ? [owner.ids.refundInterrupt] : []))
          figures.differences.push(`${label('interrupts')}: GET /api/hitl lists ${JSON.stringify(seen)}`);
      }
      const list = await send(X, 'GET', '/api/sessions?limit=100');
      figures.intrusions++;
      const listedKeys = ((list.body as { sessions?: { id: string }[] }).sessions ?? []).map((entry) => entry.id);
      const shown = THREADS.filter((name) => listedKeys.includes(owner.ids[name]));
      if (shown.length) figures.differences.push(`${label('threads')}: GET /api/sessions lists ${shown.join(', ')}`);

      // The owner's running run: stop, steer and queue operations with the owner's thread and run
      // ids reach nothing; then the intruder's own run at that key, with the same run id, is
      // stopped and steered, and the owner's is not.
      const runningTrack = (async () => {
        const a = agent.running;
        await Promise.all([
          on('running thread (hydration)', (ids) => send(X, 'GET', `/api/agents/${a}?threadId=${enc(ids.running)}`)),
          on('running thread (session stream)', (ids) => send(X, 'GET', `/api/agents/${a}?threadId=${enc(ids.running)}&offset=-1`, { quietMs: 300 })),
          on('running thread (its page)', (ids) => send(X, 'GET', `/agents/${a}/${enc(ids.running)}`), { compare: withoutSidebar, retries: 2 }),
          on('running run (join with threadId)', (ids) => send(X, 'GET', `/api/agents/${a}?runId=${enc(ids.runId)}&threadId=${enc(ids.running)}&offset=-1`)),
          on('running run (join by runId alone)', (ids) => send(X, 'GET', `/api/agents/${a}?runId=${enc(ids.runId)}`)),
          on('running run (stop, AG-UI)', (ids) => send(X, 'POST', `/api/agents/${a}/stop`, { body: { threadId: ids.running, runId: ids.runId } })),
          on('running run (stop, AG-UI, no runId)', (ids) => send(X, 'POST', `/api/agents/${a}/stop`, { body: { threadId: ids.running } })),
          on('running run (stop, HTTP)', (ids) => send(X, 'POST', `/api/v1/sessions/${enc(ids.running)}/stop`, { body: { runId: ids.runId } })),
          on('running run (steer, AG-UI)', (ids) =>
            send(X, 'POST', `/api/agents/${a}/steer`, { body: { threadId: ids.running, runId: ids.runId, text: 'intruder guidance' } }),
          ),
          on('running run (steer, HTTP)', (ids) => send(X, 'POST', `/api/v1/sessions/${enc(ids.running)}/steer`, { body: { text: 'intruder guidance' } })),
          ...(['edit', 'move', 'remove', 'sendNow'] as const).flatMap((op) => {
            const extra = op === 'edit' ? { text: 'intruder edit' } : op === 'move' ? { index: 0 } : {};
            return [
              on(`queued message (${op}, AG-UI)`, (ids) =>
                send(X, 'POST', `/api/agents/${a}/queue`, { body: { threadId: ids.running, op, id: ids.queueId, ...extra } }),
              ),
              on(`queued message (${op}, HTTP)`, (ids) =>
                send(X, 'POST', `/api/v1/sessions/${enc(ids.running)}/queue`, { body: { op, id: ids.queueId, ...extra } }),
              ),
            ];
          }),
        ]);
        // The intruder's own run at the owner's key, with the owner's run id: 20 s unless stopped, so that the
        // stop below lands while it runs however slow the machine is (it ends at the stop).
        // With Last-Event-ID: a client re-joining a run it started joins only a run of its own (else it starts one).
        const own = (ids: Ids) =>
          send(X, 'POST', `/api/agents/${a}`, {
            headers: { 'last-event-id': '1' },
            body: { threadId: ids.running, runId: ids.runId, messages: [user('slowly reply with 400 tokens')] },
          });
        const streams = { theirs: own(owner.ids), control: own(fresh) };
        const runningOwn = async (ids: Ids) =>
          ((await send(X, 'GET', `/api/agents/${a}?threadId=${enc(ids.running)}`)).body as { status?: string }).status === 'running';
        await eventually(async () => (await runningOwn(owner.ids)) && (await runningOwn(fresh)), 10_000, `${X.name}'s own runs`);
        const firstText = (event: BaseEvent) => event.type === 'TEXT_MESSAGE_CONTENT';
        await on('run id in its own thread (join)', (ids) =>
          send(X, 'GET', `/api/agents/${a}?runId=${enc(ids.runId)}&threadId=${enc(ids.running)}&offset=-1`, { until: firstText }),
        );
        await on('run id in its own thread (join by runId alone)', (ids) =>
          send(X, 'GET', `/api/agents/${a}?runId=${enc(ids.runId)}&offset=-1`, { until: firstText }),
        );
        await on('run id in its own thread (steer)', (ids) =>
          send(X, 'POST', `/api/agents/${a}/steer`, { body: { threadId: ids.running, runId: ids.runId, text: 'intruder guidance', id: ids.messageId } }),
        );
        await on('queue id in its own thread (add)', (ids) =>
          send(X, 'POST', `/api/agents/${a}/queue`, { body: { threadId: ids.running, op: 'add', id: ids.queueId, text: 'intruder queued' } }),
        );
        await on('queue id in its own thread (edit)', (ids) =>
          send(X, 'POST', `/api/agents/${a}/queue`, { body: { threadId: ids.running, op: 'edit', id: ids.queueId, text: 'intruder edited' } }),
        );
        await on('queue id in its own thread (move)', (ids) =>
          send(X, 'POST', `/api/v1/sessions/${enc(ids.running)}/queue`, { body: { op: 'move', id: ids.queueId, index: 0 } }),
        );
        await on('queue id in its own thread (remove)', (ids) =>
          send(X, 'POST', `/api/agents/${a}/queue`, { body: { threadId: ids.running, op: 'remove', id: ids.queueId } }),
        );
        await on('run id in its own thread (steer, HTTP)', (ids) =>
          send(X, 'POST', `/api/v1/sessions/${enc(ids.running)}/steer`, { body: { runId: ids.runId, text: 'intruder guidance again' } }),
        );
        await on(
          'run id in its own thread (stop, AG-UI)',
          (ids) => send(X, 'POST', `/api/agents/${a}/stop`, { body: { threadId: ids.running, runId: ids.runId } }),
          { compare: withoutTimes },
        );
        const [theirs, control] = await Promise.all([streams.theirs, streams.control]);
        // Once its own run has ended, a second stop of that run id finds nothing running, the owner's run notwithstanding.
        await on('run id in its own thread (stop, HTTP)', (ids) =>
          send(X, 'POST', `/api/v1/sessions/${enc(ids.running)}/stop`, { body: { runId: ids.runId } }),
        );
        // Its own run was stopped (how many tokens streamed first is timing): the same start and end.
        const ends = (answer: Answer) => ({
          status: answer.status,
          first: (answer.body as BaseEvent[])[0],
          last: lastEvent(answer),
          intrusion: JSON.stringify(answer.body).includes(owner.marker),
        });
        for (const answer of [theirs, control])
          expect(lastEvent(answer), label('run id in its own thread')).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
        figures.intrusions++;
        figures.controls++;
        if (!isDeepStrictEqual(normaliseIds(ends(theirs), owner.ids), normaliseIds(ends(control), fresh)))
          figures.differences.push(`${label('run id in its own thread (its stream)')}: ${JSON.stringify(ends(theirs))} vs ${JSON.stringify(ends(control))}`);
      })();

      // Reads of every thread, and what the other endpoints say of it, before the intruder has a thread by any of these keys.
      const readsTrack = Promise.all(
        THREADS.filter((name) => name !== 'running').flatMap((name) => [
          on(`${name} thread (hydration)`, (ids) => send(X, 'GET', `/api/agents/${agent[name]}?threadId=${enc(ids[name])}`)),
          on(`${name} thread (session stream)`, (ids) => send(X, 'GET', `/api/agents/${agent[name]}?threadId=${enc(ids[name])}&offset=-1`, { quietMs: 300 })),
          on(`${name} session (GET /api/v1/sessions)`, (ids) => send(X, 'GET', `/api/v1/sessions/${enc(ids[name])}`)),
          on(`${name} session (Anthropic shape)`, (ids) => send(X, 'GET', `/api/v1/sessions/${enc(ids[name])}?format=anthropic`)),
          on(`${name} session (Studio audit trail)`, (ids) => send(X, 'GET', `/api/studio/sessions/${enc(ids[name])}`)),
          on(`${name} thread (its page)`, (ids) => send(X, 'GET', `/agents/${agent[name]}/${enc(ids[name])}`), { compare: withoutSidebar, retries: 2 }),
        ]),
      );

      // Refused operations on the other threads, and the interrupts: still before the intruder has a thread by those keys.
      const refusalsTrack = Promise.all([
        on('failed session (retry)', (ids) => send(X, 'POST', `/api/v1/sessions/${enc(ids.failed)}/retry`, { body: { retryId: randomUUID() } })),
        on('idle session (retry)', (ids) => send(X, 'POST', `/api/v1/sessions/${enc(ids.idle)}/retry`, { body: { retryId: randomUUID() } })),
        on('timer thread (stop)', (ids) => send(X, 'POST', `/api/agents/helpdesk/stop`, { body: { threadId: ids.timer } })),
        on('timer thread (steer)', (ids) => send(X, 'POST', `/api/v1/sessions/${enc(ids.timer)}/steer`, { body: { text: 'intruder guidance' } })),
        on('timer thread (queue add)', (ids) =>
          send(X, 'POST', `/api/agents/helpdesk/queue`, { body: { threadId: ids.timer, op: 'add', text: 'intruder queued' } }),
        ),
        on('planner thread (queue sendNow)', (ids) =>
          send(X, 'POST', `/api/agents/taskboard/queue`, { body: { threadId: ids.planner, op: 'sendNow', id: ids.queueId } }),
        ),
        // Interrupts: out of band, from the chat, and as a resume naming them on a thread of the intruder's.
        ...(['closeInterrupt', 'refundInterrupt'] as const).flatMap((interrupt) => [
          ...(['approve', 'reject', 'cancel'] as const)
            .filter(() => !(interrupt === 'refundInterrupt' && mayDecideRefund))
            .map((action) => on(`${interrupt} (/api/hitl ${action})`, (ids) => send(X, 'POST', `/api/hitl/${enc(ids[interrupt])}/${action}`, { body: {} }))),
          on(`${interrupt} (decide from the chat)`, (ids) =>
            send(X, 'POST', '/api/agents/helpdesk/decide', {
              body: { threadId: ids[interrupt === 'closeInterrupt' ? 'paused' : 'refund'], interruptId: ids[interrupt], action: 'reject' },
            }),
          ),
          on(`${interrupt} (AG-UI resume on the owner's threadId)`, (ids) =>
            send(X, 'POST', '/api/agents/helpdesk', {
              body: {
                threadId: ids[interrupt === 'closeInterrupt' ? 'paused' : 'refund'],
                runId: randomUUID(),
                messages: [],
                resume: [{ interruptId: ids[interrupt], status: 'resolved', payload: { approved: true } }],
              },
            }),
          ),
        ]),
      ]);
      // A cron tick by the intruder fires only what is due — not the owner's timer of ten minutes.
      const cron = await send(X, 'GET', '/api/cron/timers');
      figures.intrusions++;
      expect(cron.status, label('cron route')).toBe(X.kind === 'key' ? 200 : 401);

      const writesTrack = (async () => {
        await Promise.all([readsTrack, refusalsTrack]);

        // Writes that make the intruder's own thread at the owner's keys: each is a new, empty thread, as at a fresh key.
        await Promise.all([
          (async () => {
            await on("idle thread (AG-UI run, the owner's message id)", (ids) =>
              send(X, 'POST', '/api/agents/helpdesk', {
                body: { threadId: ids.idle, runId: randomUUID(), messages: [user('reply with 2 tokens', ids.messageId)] },
              }),
            );
            await on('idle thread (hydration of its own)', (ids) => send(X, 'GET', `/api/agents/helpdesk?threadId=${enc(ids.idle)}`));
            await on('idle thread (session stream of its own)', (ids) =>
              send(X, 'GET', `/api/agents/helpdesk?threadId=${enc(ids.idle)}&offset=-1`, { quietMs: 400 }),
            );
            // Its own thread at that id has just run turns of its own (above): on a loaded machine one may
            // still be settling in one world and not the other, so a difference is asked again a few more times.
            await on('idle thread (its own page)', (ids) => send(X, 'GET', `/agents/helpdesk/${enc(ids.idle)}`), { compare: withoutSidebar, retries: 6 });
            await on('closeInterrupt (AG-UI resume on its own thread)', (ids) =>
              send(X, 'POST', '/api/agents/helpdesk', {
                body: {
                  threadId: ids.idle,
                  runId: randomUUID(),
                  messages: [],
                  resume: [{ interruptId: ids.closeInterrupt, status: 'resolved', payload: { approved: true } }],
                },
              }),
            );
            await on('refundInterrupt (AG-UI resume on its own thread)', (ids) =>
              send(X, 'POST', '/api/agents/helpdesk', {
                body: { threadId: ids.idle, runId: randomUUID(), messages: [], resume: [{ interruptId: ids.refundInterrupt, status: 'cancelled' }] },
              }),
            );
            await on('closeInterrupt (decide on its own thread)', (ids) =>
              send(X, 'POST', '/api/agents/helpdesk/decide', { body: { threadId: ids.idle, interruptId: ids.closeInterrupt, action: 'reject' } }),
            );
            await on('running run (re-join with Last-Event-ID on its own thread)', (ids) =>
              send(X, 'POST', '/api/agents/helpdesk', {
                headers: { 'last-event-id': '1' },
                body: { threadId: ids.idle, runId: ids.runId, messages: [user('reply with 1 tokens')] },
              }),
            );
          })(),
          (async () => {
            await on('failed session (OpenAI wire with its key)', (ids) =>
              send(X, 'POST', '/api/v1/chat/completions', {
                headers: { 'x-stackbone-session': ids.failed },
                body: { model: 'helpdesk', messages: [{ role: 'user', content: 'reply with 2 tokens' }] },
              }),
            );
            await on('failed session (GET /api/v1/sessions of its own)', (ids) => send(X, 'GET', `/api/v1/sessions/${enc(ids.failed)}`));
            await on('failed session (retry of its own)', (ids) =>
              send(X, 'POST', `/api/v1/sessions/${enc(ids.failed)}/retry`, { body: { retryId: randomUUID() } }),
            );
          })(),
          (async () => {
            await on('paused session (Anthropic wire with its key)', (ids) =>
              send(X, 'POST', '/api/v1/messages', {
                headers: { 'x-stackbone-session': ids.paused, 'anthropic-version': '2023-06-01' },
                body: { model: 'helpdesk', max_tokens: 100, messages: [{ role: 'user', content: 'close ticket T-7' }] },
              }),
            );
            await on('paused session (GET /api/v1/sessions of its own)', (ids) => send(X, 'GET', `/api/v1/sessions/${enc(ids.paused)}`));
          })(),
          (async () => {
            await on('timer thread (webhook)', (ids) =>
              send(X, 'POST', '/api/webhooks/helpdesk', { body: { threadId: ids.timer, text: 'reply with 2 tokens', id: ids.messageId } }),
            );
            if (X.kind === 'key') {
              const idleOwn = async (ids: Ids) =>
                ((await send(X, 'GET', `/api/agents/helpdesk?threadId=${enc(ids.timer)}`)).body as { status?: string }).status === 'idle';
              await eventually(async () => (await idleOwn(owner.ids)) && (await idleOwn(fresh)), 10_000, 'the webhook turns');
            }
            await on('timer thread (hydration after the webhook)', (ids) => send(X, 'GET', `/api/agents/helpdesk?threadId=${enc(ids.timer)}`));
          })(),
          (async () => {
            await on('planner draft (state write)', (ids) =>
              send(X, 'POST', '/api/agents/taskboard/state', { body: { threadId: ids.planner, state: { draft: 'intruder draft' } } }),
            );
            await on('planner draft (hydration of its own)', (ids) => send(X, 'GET', `/api/agents/taskboard?threadId=${enc(ids.planner)}`));
          })(),
          on('timerSoon thread (AG-UI run)', (ids) => send(X, 'POST', '/api/agents/helpdesk', { body: runBody(ids.timerSoon, 'reply with 2 tokens') })),
          on('refund thread (AG-UI run)', (ids) => send(X, 'POST', '/api/agents/helpdesk', { body: runBody(ids.refund, 'reply with 2 tokens') })),
        ]);
      })();

      await Promise.all([runningTrack, writesTrack]);
      // The intruder's list now holds its own threads at those keys: the same entries as at the fresh keys.
      await on(
        'threads (GET /api/sessions after)',
        async (ids) => {
          const answer = await send(X, 'GET', '/api/sessions?limit=100');
          const keys = new Set(Object.values(ids));
          return {
            status: answer.status,
            body: ((answer.body as { sessions: { id: string }[] }).sessions ?? [])
              .filter((entry) => keys.has(entry.id))
              .sort((x, y) => x.id.localeCompare(y.id)),
          };
        },
        {
          retries: 2,
          compare: (answer) => ({
            status: answer.status,
            body: (answer.body as { id: string; title: string; agent: string; status: string }[])
              .map(({ title, agent, status }) => ({ title, agent, status }))
              .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
          }),
        },
      );
      return fresh;
    }

    it(
      "no tenant reaches, stops, steers, decides, edits or learns of another's sessions, runs, interrupts, queue or timers",
      { timeout: 120_000 },
      async () => {
        [owners.keyOne, owners.browserA] = await Promise.all([makeOwnerWorld(tenants.keyOne, 'helpdesk'), makeOwnerWorld(tenants.browserA, 'ledger')]);
        await Promise.all([startRunning(owners.keyOne), startRunning(owners.browserA)]);
        const runningSince = Date.now();
        const before = { keyOne: await ownerSnapshot(owners.keyOne), browserA: await ownerSnapshot(owners.browserA) };

        const pairs: [OwnerWorld, Tenant][] = [
          [owners.keyOne, tenants.keyTwo],
          [owners.keyOne, tenants.browserA],
          [owners.browserA, tenants.browserB],
          [owners.browserA, tenants.keyOne],
        ];
        const freshIdsOf = await Promise.all(pairs.map(([owner, intruder]) => intrude(owner, intruder)));
        for (const [index, [owner, intruder]] of pairs.entries()) controls.set(`${owner.tenant.name}:${intruder.name}`, freshIdsOf[index]!);

        console.log(
          `[tenant isolation, ${kind}] the intrusions took ${((Date.now() - runningSince) / 1000).toFixed(1)} s of the owners' runs' ${OWNER_RUN_MS / 1000} s`,
        );
        // Studio's live feed of key-two-0123456789abcdef, from now on while key-one-0123456789abcdef's sessions change (its run ends, its
        // queued message goes out, its reminder fires): it names none of them. (Every thread of
        // key-two-0123456789abcdef's own at those keys is settled by now.)
        const feed = studioFeed(server, tenants.keyTwo);

        // Taken while the owners' runs still run: nothing of theirs moved.
        const after = { keyOne: await ownerSnapshot(owners.keyOne), browserA: await ownerSnapshot(owners.browserA) };
        for (const name of ['keyOne', 'browserA'] as const) {
          const view = after[name].sessions.running as { session: { status: string } };
          expect(view.session.status, `${name}'s run outlasts the intrusions (else this machine is too slow for the test)`).toBe('running');
          recordEffects(owners[name], before[name], after[name]);
        }

        // Each owner's run finishes as it would have: not cancelled, with no guidance but its own; its queued message goes out as queued.
        for (const owner of [owners.keyOne, owners.browserA]) {
          const events = await owner.running!;
          const finished = events.at(-1) as RunFinishedEvent;
          if (finished.type !== 'RUN_FINISHED' || finished.outcome?.type !== 'success')
            figures.effects.push(`${owner.tenant.name}'s run ended ${JSON.stringify(finished)}`);
          if (JSON.stringify(events).includes('intruder')) figures.effects.push(`${owner.tenant.name}'s run shows an intruder's text`);
          await eventually(
            async () => {
              const log = await readSessionEvents(server.databaseUrl, owner.ids.running, owner.tenant.ownerId);
              return log.filter((event) => event.type === 'run_finished').length === 2 && log;
            },
            15_000,
            `${owner.tenant.name}'s queued message to go out`,
          ).catch(async (error: Error) => {
            // What the session holds and what the server said: enough to tell a held queue from a slow one.
            const log = await readSessionEvents(server.databaseUrl, owner.ids.running, owner.tenant.ownerId);
            const outline = log.map((event) => (event.type === 'run_finished' ? `run_finished(${JSON.stringify(event.outcome)})` : event.type));
            throw new Error(`${error.message}\nThe session's log: ${outline.join(', ')}\nThe server's output, last 4 KB:\n${server.output().slice(-4096)}`);
          });
          const log = await readSessionEvents(server.databaseUrl, owner.ids.running, owner.tenant.ownerId);
          const users = log.flatMap((event) => (event.type === 'message_added' && event.message.role === 'user' ? [event.message] : []));
          if (!isDeepStrictEqual(users.at(-1), { id: owner.ids.queueId, role: 'user', content: owner.queuedText }))
            figures.effects.push(`${owner.tenant.name}'s queued message went out as ${JSON.stringify(users.at(-1))}`);
          if (log.some((event) => event.type === 'run_finished' && event.outcome.type === 'cancelled'))
            figures.effects.push(`${owner.tenant.name}'s run was cancelled`);
          if (JSON.stringify(log).includes('intruder')) figures.effects.push(`${owner.tenant.name}'s log holds an intruder's text`);
        }

        // The timer due during the test fired into its owner's session, once, and into no intruder's thread by that key.
        for (const [index, [owner, intruder]] of pairs.entries()) {
          const reminders = async (threadId: string, ownerId: string) =>
            (await readSessionEvents(server.databaseUrl, threadId, ownerId)).filter(
              (event) => event.type === 'message_added' && event.message.content.startsWith('Reminder:'),
            ).length;
          await eventually(async () => (await reminders(owner.ids.timerSoon, owner.tenant.ownerId)) === 1, 15_000, `${owner.tenant.name}'s reminder`);
          const misfired = (await reminders(owner.ids.timerSoon, intruder.ownerId)) + (await reminders(freshIdsOf[index]!.timerSoon, intruder.ownerId));
          if (misfired) figures.effects.push(`${owner.tenant.name}'s reminder fired into ${intruder.name}'s thread`);
        }

        const heard = await feed.close();
        figures.intrusions++;
        const named = THREADS.filter((name) => heard.includes(owners.keyOne.ids[name]));
        if (named.length) figures.leaks.push(`key-two-0123456789abcdef's Studio feed named key-one-0123456789abcdef's ${named.join(', ')} threads`);

        expect({ effects: figures.effects, differences: figures.differences, leaks: figures.leaks }).toEqual({ effects: [], differences: [], leaks: [] });
      },
    );

    it("a key holder may decide a browser's refund (kept for key holders); a decided interrupt of another's is still one that does not exist", async () => {
      const { keyOne, browserA } = owners;
      const refund = browserA.ids.refundInterrupt;
      // Another key's refund is not the key holders' to decide: its owner is a key, not a browser.
      const other = await send(tenants.keyTwo, 'POST', `/api/hitl/${keyOne.ids.refundInterrupt}/approve`, { body: {} });
      expect(other).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
      // The desk approves the customer's refund (docs/security.md, "Approvers"), and it runs in the customer's session.
      const approved = await send(tenants.keyOne, 'POST', `/api/hitl/${refund}/approve`, { body: {} });
      expect(approved).toMatchObject({
        status: 200,
        body: { decision: { status: 'approved', by: { source: 'hitl', credential: 'key' } }, interrupt: { sessionId: browserA.ids.refund } },
      });
      await eventually(
        async () =>
          (await readSessionEvents(server.databaseUrl, browserA.ids.refund, tenants.browserA.ownerId)).some(
            (event) => event.type === 'tool_result' && event.message.toolName === 'refundPayment',
          ),
        15_000,
        'the refund',
      );
      // Any key holder may decide it, so the other key learns it is decided (a key holder's inbox showed it).
      expect(await send(tenants.keyTwo, 'POST', `/api/hitl/${refund}/approve`, { body: {} })).toMatchObject({
        status: 409,
        body: { error: { code: 'interrupt_already_decided' } },
      });

      // Key-one decides its own ticket closure; browser A cancels its ticket closure. Decided, they are still nothing to anyone else.
      expect(await send(tenants.keyOne, 'POST', `/api/hitl/${keyOne.ids.closeInterrupt}/approve`, { body: {} })).toMatchObject({ status: 200 });
      expect(
        await send(tenants.browserA, 'POST', '/api/agents/helpdesk', {
          body: {
            threadId: browserA.ids.paused,
            runId: randomUUID(),
            messages: [],
            resume: [{ interruptId: browserA.ids.closeInterrupt, status: 'cancelled' }],
          },
        }),
      ).toMatchObject({ status: 200 });
      const decided: [OwnerWorld, Tenant, 'closeInterrupt' | 'refundInterrupt'][] = [
        [keyOne, tenants.keyTwo, 'closeInterrupt'],
        [keyOne, tenants.browserA, 'closeInterrupt'],
        [browserA, tenants.browserB, 'closeInterrupt'],
        [browserA, tenants.browserB, 'refundInterrupt'],
        [browserA, tenants.keyOne, 'closeInterrupt'],
      ];
      await Promise.all(
        decided.flatMap(([owner, intruder, interrupt]) => {
          const fresh = controls.get(`${owner.tenant.name}:${intruder.name}`)!;
          const thread = interrupt === 'closeInterrupt' ? 'paused' : 'refund';
          const label = `${intruder.name} on ${owner.tenant.name}'s decided ${interrupt}`;
          return [
            ...(['approve', 'reject', 'cancel'] as const).map((action) =>
              probe(`${label} (/api/hitl ${action})`, owner, fresh, (ids) => send(intruder, 'POST', `/api/hitl/${ids[interrupt]}/${action}`, { body: {} })),
            ),
            probe(`${label} (decide from the chat)`, owner, fresh, (ids) =>
              send(intruder, 'POST', '/api/agents/helpdesk/decide', { body: { threadId: ids[thread], interruptId: ids[interrupt], action: 'reject' } }),
            ),
            probe(`${label} (AG-UI resume)`, owner, fresh, (ids) =>
              send(intruder, 'POST', '/api/agents/helpdesk', {
                body: {
                  threadId: ids[thread],
                  runId: randomUUID(),
                  messages: [],
                  resume: [{ interruptId: ids[interrupt], status: 'resolved', payload: { approved: true } }],
                },
              }),
            ),
          ];
        }),
      );
      expect({ differences: figures.differences, leaks: figures.leaks }).toEqual({ differences: [], leaks: [] });
    });

    it('the cron route needs CRON_SECRET or a key, and CRON_SECRET reads no session', async () => {
      expect((await fetch(`${server.url}/api/cron/timers`)).status).toBe(401);
      expect((await fetch(`${server.url}/api/cron/timers`, { headers: tenants.browserA.headers })).status).toBe(401);
      expect((await fetch(`${server.url}/api/cron/timers`, { headers: { authorization: 'Bearer not-a-key' } })).status).toBe(401);
      expect((await fetch(`${server.url}/api/cron/timers`, { headers: { authorization: `Bearer ${CRON_SECRET}` } })).status).toBe(200);
      const read = await fetch(`${server.url}/api/v1/sessions/${owners.keyOne.ids.idle}`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
      expect(read.status).toBe(401);
      // The owner's ten-minute timer is still waiting, whoever ticked.
      const rows = await readSessionRows(server.databaseUrl, owners.keyOne.ids.timer, tenants.keyOne.ownerId);
      expect((rows.timers as { firedAt: unknown }[]).map((timer) => timer.firedAt)).toEqual([null]);
    });
  });
}

/** Ids nobody used, in the shapes the owner's have (interrupt ids are the server's: `int_<uuid>`). */
function freshIds(): Ids {
  return {
    ...Object.fromEntries(THREADS.map((name) => [name, `${name}-${randomUUID()}`])),
    runId: randomUUID(),
    queueId: randomUUID(),
    messageId: randomUUID(),
    closeInterrupt: `int_${randomUUID()}`,
    refundInterrupt: `int_${randomUUID()}`,
  } as Ids;
}

/** A stop's answer without its time (two stops are not at the same millisecond). */
function withoutTimes(answer: Answer): Answer {
  const body = answer.body as Record<string, unknown>;
  return { status: answer.status, body: { ...body, requestedAt: body.requestedAt === undefined ? undefined : '<time>' } };
}

/** Where two answers part, with some context: the owner's id's answer, then the unused id's. */
function firstDifference(theirs: string, control: string): string {
  let at = 0;
  while (at < theirs.length && theirs[at] === control[at]) at++;
  const from = Math.max(0, at - 200);
  return `for the owner's id …${theirs.slice(from, at + 200)}…, for an unused id …${control.slice(from, at + 200)}…`;
}

/**
 * A page without its sidebar: the sidebar is the intruder's own list of threads, which holds the
 * threads it made at the owner's keys and at the fresh ones alike (GET /api/sessions is compared
 * on its own). Both its HTML and the list in the page's data go.
 */
function withoutSidebar(answer: Answer): Answer {
  if (typeof answer.body !== 'string') return answer;
  return {
    status: answer.status,
    // The history list (components/thread-sidebar.tsx) is the viewer's own, and the page's data carries it for the drawer too.
    body: answer.body
      .replace(/<ul[^>]*data-testid="thread-list"[^>]*>.*?<\/ul>/gs, '<ul data-testid="thread-list"></ul>')
      .replace(/\\"threads\\":\[[^\]]*\]/g, '\\"threads\\":[]'),
  };
}

/** Studio's live feed (`/api/studio/stream`) of a tenant: the session keys it says changed, until closed. */
function studioFeed(server: TestServer, tenant: Tenant) {
  const abort = new AbortController();
  const heard: string[] = [];
  const reading = (async () => {
    const response = await fetch(`${server.url}/api/studio/stream`, { headers: tenant.headers, signal: abort.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      heard.push((JSON.parse(value.data) as { sessionId: string }).sessionId);
    }
  })().catch((error: unknown) => {
    if (!abort.signal.aborted) throw error;
  });
  return {
    async close() {
      abort.abort();
      await reading;
      return heard;
    },
  };
}
