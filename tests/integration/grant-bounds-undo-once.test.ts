// Security review A's approval bypasses F4 and F5, and its suspicion "a grant outlives a
// tightening of approvers", replayed against real `next start` servers on SQLite and PostgreSQL,
// keyed and with the public chat open as in the review (docs/approvals.md, "Scoped grants";
// docs/time-travel.md, "Undoing a dropped effect"). Each attack is refused and nothing it asked
// for ran — the fixture tools' ledger says so — and the honest path beside it still works.
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RunFinishedEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import type { SessionEvent } from '../../server/store/events';
import { keyOwner } from '../../server/credentials/open-dev-mode';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { eventually, readSessionEvents } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';
import { newGuest } from '../support/guest';

const PORTS = { sqlite: { server: 3361, tightened: 3362 }, postgres: { server: 3363, tightened: 3364 } } as const;
type Kind = keyof typeof PORTS;
const ALICE_KEY = 'k1-0123456789abcdef01234';
const ALICE = { authorization: `Bearer ${ALICE_KEY}` };
const ALICE_OWNER = keyOwner(ALICE_KEY);
const SECRET = 'grant-bounds-and-undo-once-secret-0123456789';
const json = { 'content-type': 'application/json' };

/** Every server this file started, killed at the end whatever happened. */
const started: TestServer[] = [];

interface Setup {
  kind: Kind;
  server: TestServer;
  databaseUrl: string;
  ledgerFile: string;
  /** The environment the server runs with: the review's keys, the open chat, the fixture agents. */
  env: Record<string, string>;
}

async function setUp(kind: Kind): Promise<Setup> {
  const databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_review_a');
  const ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-review-a-')), 'ledger.jsonl');
  const env = {
    ...fixtureEnv(ledgerFile),
    STACKBONE_API_KEYS: `alice:finance=${ALICE_KEY},carol:ops=k3-0123456789abcdef01234`,
    STACKBONE_SECRET: SECRET,
    STACKBONE_WEB_ACCESS: 'open',
  };
  const server = await startServer({ port: PORTS[kind].server, databaseUrl, env });
  started.push(server);
  return { kind, server, databaseUrl, ledgerFile, env };
}

const kinds = backends().map((backend) => backend.kind as Kind);
const setups = new Map<Kind, Setup>();

beforeAll(async () => {
  const ready = await Promise.all(kinds.map(async (kind) => [kind, await setUp(kind)] as const));
  for (const [kind, setup] of ready) setups.set(kind, setup);
}, 120_000);

afterAll(async () => {
  await Promise.all(started.map((server) => server.kill()));
});

async function post(url: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { code: string; message: string } } };
}

/** A turn of `text`; its RUN_FINISHED. */
async function turn(url: string, headers: Record<string, string>, agent: string, threadId: string, text: string) {
  const { status, events } = await postRun(url, agent, { threadId, runId: randomUUID(), messages: [userMessage(text)] }, headers);
  expect(status).toBe(200);
  return events.at(-1) as RunFinishedEvent;
}

/** A turn that pauses on a call; the interrupt's id. */
async function pause(url: string, headers: Record<string, string>, agent: string, threadId: string, text: string): Promise<string> {
  const outcome = (await turn(url, headers, agent, threadId, text)).outcome;
  if (outcome?.type !== 'interrupt') throw new Error(`expected an interrupt, got ${JSON.stringify(outcome)}`);
  return outcome.interrupts[0]!.id;
}

async function hydrate(url: string, headers: Record<string, string>, agent: string, threadId: string) {
  const response = await fetch(`${url}/api/agents/${agent}?threadId=${encodeURIComponent(threadId)}`, { headers: { accept: 'application/json', ...headers } });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    status: string;
    messages: { id: string; role: string }[];
    interrupts: { pending: { id: string }[] } | null;
    undoOffers: { toolCallId: string }[];
  };
}

/** A guest of the open chat: the session cookie its first page sets, its owner id, and the Origin its POSTs carry. */
async function browser(url: string): Promise<{ cookie: string; origin: string; ownerId: string }> {
  const { cookie, ownerId } = await newGuest(url);
  return { cookie, origin: url, ownerId };
}

for (const kind of kinds) {
  describe(`review A's grant and undo attacks on ${kind}`, () => {
    const effects = (key: string) => readLedger(setups.get(kind)!.ledgerFile).filter((line) => line.kind === 'effect' && line.key === key);
    const logOf = (threadId: string, owner = ALICE_OWNER) => readSessionEvents(setups.get(kind)!.databaseUrl, threadId, owner);
    const idle = (url: string, headers: Record<string, string>, agent: string, threadId: string) =>
      eventually(async () => (await hydrate(url, headers, agent, threadId)).status === 'idle', 15_000, `thread ${threadId} to be idle`);

    it("F4: a 'time' grant past the tool's bound (30 days) or past any date is 400 grant_invalid, never a 500, and writes nothing; '1h' is granted", async () => {
      const { server } = setups.get(kind)!;
      const threadId = randomUUID();
      const attacked = `review-f4-${randomUUID()}`;
      const interruptId = await pause(server.url, ALICE, 'approval-desk', threadId, `call grantableEffect {"key":"${attacked}"}`);
      for (const wanted of ['36500000d', '99999999999d', '31d', 1e300, -1, 'forever']) {
        const answer = await post(`${server.url}/api/hitl/${interruptId}/approve`, { grant: { scope: 'time', for: wanted } }, ALICE);
        expect({ wanted, status: answer.status, code: answer.body.error?.code }).toEqual({ wanted, status: 400, code: 'grant_invalid' });
      }
      expect((await logOf(threadId)).filter((event) => event.type === 'interrupt_decided' || event.type === 'grant_added')).toEqual([]);
      expect(effects(attacked)).toEqual([]);
      expect(server.output()).not.toMatch(/RangeError|Invalid time value/);

      // The honest path: an hour, which covers the next call without a pause.
      const approved = await post(`${server.url}/api/hitl/${interruptId}/approve`, { grant: { scope: 'time', for: '1h' } }, ALICE);
      expect(approved.status).toBe(200);
      const grant = approved.body.grant as { id: string; expiresAt: string };
      expect(Date.parse(grant.expiresAt) - Date.now()).toBeGreaterThan(3_600_000 - 60_000);
      expect(Date.parse(grant.expiresAt) - Date.now()).toBeLessThanOrEqual(3_600_000);
      await idle(server.url, ALICE, 'approval-desk', threadId);
      expect(effects(attacked)).toHaveLength(1);
      const next = `review-f4-next-${randomUUID()}`;
      expect((await turn(server.url, ALICE, 'approval-desk', threadId, `call grantableEffect {"key":"${next}"}`)).outcome?.type).toBe('success');
      expect(effects(next)).toHaveLength(1);
      expect((await logOf(threadId)).filter((event) => event.type === 'tool_started').at(-1)).toMatchObject({ grantId: grant.id });
    });

    it("a browser's own session grant stops covering calls once a deploy keeps the tool for key holders; a key holder's grant then covers them", async () => {
      const { server, databaseUrl, env } = setups.get(kind)!;
      const { ownerId: owner, ...customer } = await browser(server.url);
      const threadId = randomUUID();
      const [first, second, attacked, fourth] = ['b1', 'b2', 'b3', 'b4'].map((name) => `review-grant-${name}-${randomUUID()}`);

      // Before the deploy: the customer approves their own call "and for this chat"; the next call runs inside the grant.
      const interruptId = await pause(server.url, customer, 'approval-desk', threadId, `call grantableEffect {"key":"${first}"}`);
      const resumed = await postRun(
        server.url,
        'approval-desk',
        {
          threadId,
          runId: randomUUID(),
          messages: [],
          resume: [{ interruptId, status: 'resolved', payload: { approved: true, grant: { scope: 'session' } } }],
        },
        customer,
      );
      expect((resumed.events.at(-1) as RunFinishedEvent).outcome?.type).toBe('success');
      expect((await turn(server.url, customer, 'approval-desk', threadId, `call grantableEffect {"key":"${second}"}`)).outcome?.type).toBe('success');
      expect([effects(first), effects(second)].map((lines) => lines.length)).toEqual([1, 1]);

      // The deploy: the same database, the tool now decided by key holders only. On SQLite the file
      // takes one server process (docs/deploy.md), so the old server stops first, as a deploy would.
      if (kind === 'sqlite') await server.kill();
      const tightened = await startServer({ port: PORTS[kind].tightened, databaseUrl, env: { ...env, STACKBONE_DESK_APPROVERS: 'key-holders' } });
      started.push(tightened);
      try {
        // The same browser on the new server: its cookie, and the new server's origin on its POSTs.
        const there = { ...customer, origin: tightened.url };
        const paused = await pause(tightened.url, there, 'approval-desk', threadId, `call grantableEffect {"key":"${attacked}"}`);
        expect(effects(attacked)).toEqual([]);
        // Nor can the customer approve it now.
        const own = await postRun(
          tightened.url,
          'approval-desk',
          { threadId, runId: randomUUID(), messages: [], resume: [{ interruptId: paused, status: 'resolved', payload: { approved: true } }] },
          there,
        );
        expect(own.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'approver_required' });
        expect(effects(attacked)).toEqual([]);

        // The honest path: a key holder approves it with a grant, which covers the customer's next call.
        const approved = await post(`${tightened.url}/api/hitl/${paused}/approve`, { grant: { scope: 'session' } }, ALICE);
        expect(approved.status).toBe(200);
        await eventually(async () => (await readSessionEvents(databaseUrl, threadId, owner)).at(-1)?.type === 'run_finished', 15_000, 'the approved call');
        expect(effects(attacked)).toHaveLength(1);
        expect((await turn(tightened.url, there, 'approval-desk', threadId, `call grantableEffect {"key":"${fourth}"}`)).outcome?.type).toBe('success');
        expect(effects(fourth)).toHaveLength(1);
        const starts = (await readSessionEvents(databaseUrl, threadId, owner)).filter((event) => event.type === 'tool_started');
        expect(starts.at(-1)).toMatchObject({ grantId: (approved.body.grant as { id: string }).id });
      } finally {
        await tightened.kill();
        if (kind === 'sqlite') {
          // The file's own server again, as before the deploy, for the tests after this one.
          const back = await startServer({ port: PORTS[kind].server, databaseUrl, env });
          started.push(back);
          setups.set(kind, { ...setups.get(kind)!, server: back });
        }
      }
    });

    /** Alice's thread: a reply, then a noted effect after it; forks made at the reply leave the effect behind. */
    async function forksLeavingAnEffect(count: number) {
      const { server } = setups.get(kind)!;
      const original = randomUUID();
      const key = `review-f5-${randomUUID()}`;
      await turn(server.url, ALICE, 'ledger', original, 'hello');
      await turn(server.url, ALICE, 'ledger', original, `call noteEffect {"key":"${key}"}`);
      const reply = (await hydrate(server.url, ALICE, 'ledger', original)).messages.find((message) => message.role === 'assistant')!;
      const forks: string[] = [];
      for (let index = 0; index < count; index++) {
        const forked = await post(`${server.url}/api/agents/ledger/fork`, { threadId: original, atMessageId: reply.id }, ALICE);
        expect(forked.status).toBe(201);
        forks.push(forked.body.threadId as string);
      }
      const offers = await Promise.all(forks.map(async (fork) => (await hydrate(server.url, ALICE, 'ledger', fork)).undoOffers));
      for (const offered of offers) expect(offered).toHaveLength(1);
      return { key, forks, toolCallId: offers[0]![0]!.toolCallId };
    }

    /** Alice's pending approvals of the undo of `key`. */
    async function pendingUndos(key: string): Promise<string[]> {
      const { server } = setups.get(kind)!;
      const inbox = (await (await fetch(`${server.url}/api/hitl`, { headers: ALICE })).json()) as {
        interrupts: { id: string; toolName: string; args: { key?: string } }[];
      };
      return inbox.interrupts.filter((item) => item.toolName === 'unnoteEffect' && item.args.key === key).map((item) => item.id);
    }

    it('F5: an undo asked in one fork is 409 already_undone in its sibling and offered in neither; approved, it runs once', async () => {
      const { server } = setups.get(kind)!;
      const { key, forks, toolCallId } = await forksLeavingAnEffect(2);
      const [one, two] = forks as [string, string];
      const undo = (threadId: string) => post(`${server.url}/api/agents/ledger/undo`, { threadId, toolCallId }, ALICE);

      const atOnce = await Promise.all([undo(one), undo(one), undo(one)]);
      expect(atOnce.map((answer) => answer.status).sort()).toEqual([202, 409, 409]);
      for (const answer of atOnce.filter((candidate) => candidate.status === 409))
        expect(['already_undone', 'session_busy']).toContain(answer.body.error?.code);
      await eventually(async () => (await hydrate(server.url, ALICE, 'ledger', one)).status === 'interrupted', 15_000, 'the undo to wait for its approval');

      // The review's attack: the same undo in the sibling fork.
      expect(await undo(two)).toMatchObject({ status: 409, body: { error: { code: 'already_undone', threadId: one } } });
      expect((await hydrate(server.url, ALICE, 'ledger', two)).undoOffers).toEqual([]);
      expect((await hydrate(server.url, ALICE, 'ledger', one)).undoOffers).toEqual([]);
      const pending = await pendingUndos(key);
      expect(pending).toHaveLength(1);
      expect(effects(`undo:${key}`)).toEqual([]);

      // The honest path: the one undo, approved, runs once.
      expect((await post(`${server.url}/api/hitl/${pending[0]}/approve`, {}, ALICE)).status).toBe(200);
      await idle(server.url, ALICE, 'ledger', one);
      expect(effects(`undo:${key}`)).toHaveLength(1);
      expect(effects(key)).toHaveLength(1);
      expect(await undo(two)).toMatchObject({ status: 409, body: { error: { code: 'already_undone' } } });
      expect(await undo(one)).toMatchObject({ status: 409, body: { error: { code: 'already_undone' } } });
      expect(effects(`undo:${key}`)).toHaveLength(1);
    });

    it('F5 at the same moment: two forks asking together, then both approved together, take the effect back once', async () => {
      const { server } = setups.get(kind)!;
      const { key, forks, toolCallId } = await forksLeavingAnEffect(2);
      const asked = await Promise.all(forks.map((threadId) => post(`${server.url}/api/agents/ledger/undo`, { threadId, toolCallId }, ALICE)));
      const accepted = forks.filter((_, index) => asked[index]!.status === 202);
      expect(accepted.length).toBeGreaterThanOrEqual(1);
      for (const answer of asked.filter((candidate) => candidate.status !== 202))
        expect(answer).toMatchObject({ status: 409, body: { error: { code: 'already_undone' } } });

      const pending = await eventually(async () => {
        const ids = await pendingUndos(key);
        return ids.length === accepted.length && ids;
      });
      const approvals = await Promise.all(pending.map((id) => post(`${server.url}/api/hitl/${id}/approve`, {}, ALICE)));
      expect(approvals.map((answer) => answer.status)).toEqual(pending.map(() => 200));
      for (const threadId of accepted) await idle(server.url, ALICE, 'ledger', threadId);
      expect(effects(`undo:${key}`)).toHaveLength(1);

      // Where both were accepted, the second says so: not run, or run as a no-op under the one key.
      const results = await Promise.all(
        accepted.map(async (threadId) =>
          (await logOf(threadId)).findLast((event): event is Extract<SessionEvent, { type: 'tool_result' }> => event.type === 'tool_result'),
        ),
      );
      const tookBack = results.filter((result) => (result?.output as { new?: boolean } | undefined)?.new === true);
      expect(tookBack).toHaveLength(1);
      for (const result of results.filter((candidate) => !tookBack.includes(candidate)))
        expect(result?.message.content).toMatch(/^Not run: this effect was undone already|"new":false/);
    });
  });
}
