// Two `next start` processes on one PostgreSQL database (docs/internals/architecture.md, "Streams and
// cursors"): a client attached to one sees a run that executes on the other, and a decision
// made on one continues the run once.
import { randomUUID } from 'node:crypto';
import { EventType, type RunFinishedEvent, type TextMessageContentEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import { joinStream, openRun, postRun, readThread, runInput } from '../support/agui';
import { backends } from '../support/backends';
import { eventually } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const tokens = (n: number) => Array.from({ length: n }, (_, i) => `token${i + 1}`).join(' ');

for (const backend of backends().filter((server) => server.kind === 'postgres')) {
  describe('two servers on one PostgreSQL database', () => {
    // A is the suite's Postgres server; B is a second process on the same database.
    const a = backend;
    let b: TestServer;
    beforeAll(async () => {
      b = await startServer({ port: 3213, databaseUrl: backend.databaseUrl, env: fixtureEnv(backend.ledgerFile) });
    }, 40_000);
    afterAll(async () => {
      await b?.kill();
    });

    it('a run executing on A streams to a client attached to B, from its start to its end', async () => {
      const threadId = randomUUID();
      const runId = randomUUID();
      const onA = openRun(a.url, 'helpdesk', runInput(threadId, 'slowly reply with 30 tokens', runId));
      await eventually(async () => (await readThread(b.url, 'helpdesk', threadId)).body.status === 'running', 10_000, 'B to see the run');
      const onB = await joinStream(b.url, 'helpdesk', { threadId, runId, offset: '-1' });
      const fromA = await onA;
      expect(onB.events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
      const textOf = (events: { type: string }[]) =>
        events
          .filter((event): event is TextMessageContentEvent => event.type === EventType.TEXT_MESSAGE_CONTENT)
          .map((event) => event.delta)
          .join('');
      expect(textOf(onB.events)).toBe(tokens(30));
      // The same run under the same cursors on both servers.
      expect(onB.ids).toEqual(fromA.ids);
    });

    it('an approval made on B continues the run paused on A, once, and A sees it live', async () => {
      const threadId = randomUUID();
      const key = `two-${randomUUID().slice(0, 8)}`;
      const { events } = await postRun(a.url, 'ledger', runInput(threadId, `call recordEffect {"key":"${key}"}`));
      const interrupt = ((events.at(-1) as RunFinishedEvent).outcome as { interrupts: { id: string; toolCallId: string }[] }).interrupts[0]!;
      const { body: thread } = await readThread(a.url, 'ledger', threadId);
      const watchingA = joinStream(a.url, 'ledger', { threadId, offset: thread.cursor }, { stop: (entry) => entry.event.type === EventType.RUN_FINISHED });
      const [first, second] = await Promise.all([
        fetch(`${b.url}/api/hitl/${interrupt.id}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
        fetch(`${a.url}/api/hitl/${interrupt.id}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 409]);
      const seen = await watchingA;
      expect(seen.events.map((event) => event.type)).toContain(EventType.TOOL_CALL_RESULT);
      expect(seen.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
      await eventually(async () => (await readThread(b.url, 'ledger', threadId)).body.status === 'idle', 10_000, 'the continuation to finish');
      expect(readLedger(backend.ledgerFile).filter((line) => line.key === key && line.kind === 'effect')).toHaveLength(1);
    });
  });
}
