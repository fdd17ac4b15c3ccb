// Quorum and separation of duties (docs/approvals.md), on SQLite and PostgreSQL, keyed: a payout
// kept for two distinct `key:finance` approvers, never the requester. The requester, a key the
// list does not name and a second vote by one approver are refused; three finance keys
// approving at the same moment through two `next start` servers on one PostgreSQL database (on
// SQLite, through one: a SQLite file takes one server process, docs/deploy.md) make one decision,
// one continuation, and one run of the tool, every round.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RunFinishedEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { eventually, readSessionEvents } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const PORTS = { sqlite: [3315], postgres: [3317, 3318] } as const;
const SECRET = 'test-secret-0123456789abcdef0123456789';
const KEYS = {
  alice: 'sk-q-alice-0123456789abcdef',
  bob: 'sk-q-bob-0123456789abcdef',
  dave: 'sk-q-dave-0123456789abcdef',
  erin: 'sk-q-erin-0123456789abcdef',
  carol: 'sk-q-carol-0123456789abcdef',
  plain: 'sk-q-plain-0123456789abcdef',
} as const;
const API_KEYS = `alice:finance=${KEYS.alice},bob:finance=${KEYS.bob},dave:finance+ops=${KEYS.dave},erin:finance=${KEYS.erin},carol:ops=${KEYS.carol},${KEYS.plain}`;
const ROUNDS = 5;

const keyOwnerId = (key: string) => `key:${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

type Kind = keyof typeof PORTS;
/**
 * Per database: two processes on it, so that the race crosses them — on SQLite one process, which
 * plays both (a second does not start on its file) — and their ledger file.
 */
const setups = new Map<Kind, { servers: TestServer[]; ledgerFile: string }>();

beforeAll(async () => {
  // Every backend's servers start at once.
  await Promise.all(
    backends().map(async ({ kind }) => {
      const ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-quorum-')), 'ledger.jsonl');
      const databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_quorum');
      const env = { ...fixtureEnv(ledgerFile), STACKBONE_API_KEYS: API_KEYS, STACKBONE_SECRET: SECRET };
      const started = await Promise.all(PORTS[kind].map((port) => startServer({ port, databaseUrl, env })));
      setups.set(kind, { servers: started.length === 1 ? [started[0]!, started[0]!] : started, ledgerFile });
    }),
  );
}, 60_000);
afterAll(() => Promise.all([...new Set([...setups.values()].flatMap(({ servers }) => servers))].map((server) => server.kill())));

for (const { kind } of backends()) {
  describe(`quorum on ${kind}`, () => {
    let servers: TestServer[] = [];
    let ledgerFile: string;
    beforeAll(() => {
      ({ servers, ledgerFile } = setups.get(kind)!);
    });

    /** Alice, a finance key herself, asks for a payout in her own session. */
    async function pause(reference: string) {
      const threadId = randomUUID();
      const run = await postRun(
        servers[0]!.url,
        'quorum-desk',
        { threadId, runId: randomUUID(), messages: [userMessage(`call payOut {"key": "${reference}", "amount": 500}`)] },
        bearer(KEYS.alice),
      );
      const outcome = (run.events.at(-1) as RunFinishedEvent).outcome;
      if (outcome?.type !== 'interrupt') throw new Error(`expected a pause, got ${JSON.stringify(run.events.at(-1))}`);
      return { threadId, interrupt: outcome.interrupts[0]! };
    }
    const decide = async (server: TestServer, interruptId: string, action: 'approve' | 'reject' | 'cancel', key: string) => {
      const response = await fetch(`${server.url}/api/hitl/${interruptId}/${action}`, { method: 'POST', headers: bearer(key) });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    const inbox = async (key: string) =>
      ((await (await fetch(`${servers[1]!.url}/api/hitl`, { headers: bearer(key) })).json()) as { interrupts: Record<string, any>[] }).interrupts;
    const events = (threadId: string) => readSessionEvents(servers[0]!.databaseUrl, threadId, keyOwnerId(KEYS.alice));
    const ran = (reference: string) => readLedger(ledgerFile).filter((line) => line.key === reference);

    it('refuses the requester, a key the list does not name, and a second vote; lists the votes; the requester may withdraw', async () => {
      const reference = `refusals-${randomUUID()}`;
      const { threadId, interrupt } = await pause(reference);
      expect(interrupt.metadata).toMatchObject({ toolName: 'payOut', approvers: ['key:finance'], quorum: 2, votes: [] });
      const [a, b] = servers as [TestServer, TestServer];

      expect(await decide(a, interrupt.id, 'approve', KEYS.alice)).toMatchObject({ status: 403, body: { error: { code: 'requester_may_not_approve' } } });
      expect(await decide(b, interrupt.id, 'reject', KEYS.alice)).toMatchObject({ status: 403, body: { error: { code: 'requester_may_not_approve' } } });
      for (const key of [KEYS.carol, KEYS.plain]) {
        expect(await decide(a, interrupt.id, 'approve', key)).toMatchObject({ status: 403, body: { error: { code: 'approver_required' } } });
      }
      expect((await inbox(KEYS.carol)).map((item) => item.id)).not.toContain(interrupt.id);

      const vote = await decide(a, interrupt.id, 'approve', KEYS.bob);
      expect(vote).toMatchObject({
        status: 200,
        body: { decision: null, vote: { status: 'approved', by: { keyName: 'bob' } }, quorum: 2, continuation: null },
      });
      expect(await decide(b, interrupt.id, 'approve', KEYS.bob)).toMatchObject({ status: 409, body: { error: { code: 'already_voted' } } });
      expect((await events(threadId)).filter((event) => event.type === 'interrupt_voted')).toHaveLength(1);
      // Dave (finance and ops) sees it with Bob's vote; the requester sees her own.
      expect((await inbox(KEYS.dave)).find((item) => item.id === interrupt.id)).toMatchObject({
        quorum: 2,
        votes: [{ status: 'approved', by: { keyName: 'bob' } }],
        ownSession: false,
      });
      expect((await inbox(KEYS.alice)).find((item) => item.id === interrupt.id)).toMatchObject({ ownSession: true, requesterMayApprove: false });
      // The requester's chat hydrates the pause with the votes so far.
      const thread = await (await fetch(`${b.url}/api/agents/quorum-desk?threadId=${threadId}`, { headers: bearer(KEYS.alice) })).json();
      expect(thread.interrupts.pending[0].metadata).toMatchObject({ quorum: 2, requesterMayApprove: false, votes: [{ by: { keyName: 'bob' } }] });

      const withdrawn = await decide(b, interrupt.id, 'cancel', KEYS.alice);
      expect(withdrawn).toMatchObject({ status: 200, body: { decision: { status: 'cancelled' } } });
      await eventually(async () => (await events(threadId)).at(-1)?.type === 'run_finished', 10_000, 'the withdrawal’s continuation');
      expect(ran(reference)).toEqual([]);
    });

    it(`three finance keys approving at once across two servers: one decision, one continuation, one run of the tool (${ROUNDS} rounds)`, async () => {
      const tally: Record<string, number> = {};
      for (let round = 0; round < ROUNDS; round++) {
        const reference = `race-${round}-${randomUUID()}`;
        const { threadId, interrupt } = await pause(reference);
        const [a, b] = servers as [TestServer, TestServer];
        const results = await Promise.all([
          decide(a, interrupt.id, 'approve', KEYS.bob),
          decide(b, interrupt.id, 'approve', KEYS.dave),
          decide(round % 2 ? a : b, interrupt.id, 'approve', KEYS.erin),
        ]);
        const outcomes = results.map((result) =>
          result.status === 200 ? (result.body.decision ? 'decision' : 'vote') : `${result.status} ${result.body.error?.code as string}`,
        );
        for (const outcome of outcomes) tally[outcome] = (tally[outcome] ?? 0) + 1;
        // One vote and one decision; the third is a refusal of an interrupt already decided.
        expect(outcomes.sort(), `round ${round}`).toEqual(['409 interrupt_already_decided', 'decision', 'vote']);
        const decided = results.find((result) => result.body.decision)!.body;
        expect(decided.decision).toMatchObject({ status: 'approved', votes: [{ status: 'approved' }, { status: 'approved' }] });
        expect(decided.continuation).toMatchObject({ runId: expect.any(String) });

        const log = await eventually(
          async () => {
            const all = await events(threadId);
            return all.at(-1)?.type === 'run_finished' && all.some((event) => event.type === 'interrupt_decided') && all;
          },
          10_000,
          'the continuation to finish',
        );
        const afterPause = log.slice(log.findIndex((event) => event.type === 'interrupts_opened'));
        expect(afterPause.filter((event) => event.type === 'interrupt_decided')).toHaveLength(1);
        expect(afterPause.filter((event) => event.type === 'interrupt_voted')).toHaveLength(1);
        expect(afterPause.filter((event) => event.type === 'run_started' && event.source === 'hitl')).toHaveLength(1);
        expect(ran(reference).map((line) => line.kind)).toEqual(['attempt', 'effect']);
      }
      console.log(`[quorum] ${kind}: ${ROUNDS} rounds of three racing approvals across two servers: ${JSON.stringify(tally)}`);
    });
  });
}
