// The CLI end to end against a real server: list → approve → the session continues; a
// session's run stopped from the CLI ends cancelled.
import { randomUUID } from 'node:crypto';
import { EventType, type RunFinishedEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import { openRun, postRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { stackbone } from '../support/cli';
import { eventually, readSessionEvents } from '../support/inspect';

for (const server of backends()) {
  describe(`npx stackbone hitl on ${server.kind}`, () => {
    it('lists the pending call, approves it, and the session carries on to the end', async () => {
      const threadId = randomUUID();
      const { events } = await postRun(server.url, 'ledger', {
        threadId,
        runId: randomUUID(),
        messages: [userMessage('call recordEffect {"key":"from-cli"}')],
      });
      const outcome = (events.at(-1) as RunFinishedEvent).outcome;
      expect(outcome?.type).toBe('interrupt');
      const interrupt = (outcome as { interrupts: { id: string; toolCallId: string }[] }).interrupts[0]!;

      const listed = await stackbone(server.url, 'hitl', 'list', '--json');
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout).interrupts).toContainEqual(
        expect.objectContaining({ id: interrupt.id, sessionId: threadId, ownSession: true, toolName: 'recordEffect', args: { key: 'from-cli', sleepMs: 0 } }),
      );
      const table = await stackbone(server.url, 'hitl', 'list');
      expect(table.stdout).toContain(interrupt.id);

      const approved = await stackbone(server.url, 'hitl', 'approve', interrupt.id, '--yes', '--json');
      expect(approved.code).toBe(0);
      expect(JSON.parse(approved.stdout)).toMatchObject({
        decision: { status: 'approved', by: { source: 'cli' } },
        continuation: { runId: expect.any(String) },
      });

      const log = await eventually(
        async () => {
          const all = await readSessionEvents(server.databaseUrl, threadId);
          return all.at(-1)?.type === 'run_finished' && all.filter((event) => event.type === 'run_finished').length === 2 ? all : undefined;
        },
        10_000,
        'the continuation to finish',
      );
      expect(log.at(-1)).toMatchObject({ type: 'run_finished', outcome: { type: 'success' } });
      expect(readLedger(server.ledgerFile).filter((line) => line.toolCallId === interrupt.toolCallId && line.kind === 'effect')).toHaveLength(1);

      const again = await stackbone(server.url, 'hitl', 'reject', interrupt.id, '--yes');
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('interrupt_already_decided');
    });
  });

  describe(`npx stackbone session stop on ${server.kind}`, () => {
    it('stops the run in progress (recorded as the CLI), then has nothing to stop; an unknown session is not_found', async () => {
      const threadId = randomUUID();
      const runId = randomUUID();
      // Read the whole stream in the background: it ends when the run does.
      const reading = openRun(
        server.url,
        'helpdesk',
        { threadId, runId, messages: [userMessage('slowly reply with 200 tokens')], tools: [], context: [], state: {}, forwardedProps: {} },
        () => false,
      );
      await eventually(async () => (await readThread(server.url, 'helpdesk', threadId)).body.status === 'running', 10_000, 'the run to start');

      // A stop for another run leaves this one running.
      const other = await stackbone(server.url, 'session', 'stop', threadId, '--run', randomUUID(), '--json');
      expect(other.code).toBe(0);
      expect(JSON.parse(other.stdout)).toMatchObject({ threadId, stopped: false, reason: 'other_run' });
      expect((await readThread(server.url, 'helpdesk', threadId)).body.status).toBe('running');

      const stop = await stackbone(server.url, 'session', 'stop', threadId, '--json');
      expect(stop.code).toBe(0);
      expect(JSON.parse(stop.stdout)).toMatchObject({ threadId, runId, stopped: true, requestedAt: expect.any(String) });

      const { events } = await reading;
      expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, runId, outcome: { type: 'cancelled' } });
      expect(events.filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT).length).toBeLessThan(200);
      const log = await readSessionEvents(server.databaseUrl, threadId);
      expect(log.at(-1)).toMatchObject({ type: 'run_finished', runId, outcome: { type: 'cancelled' }, stop: { by: { source: 'cli' } } });

      const again = await stackbone(server.url, 'session', 'stop', threadId, '--json');
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ threadId, stopped: false, reason: 'not_running' });
      const human = await stackbone(server.url, 'session', 'stop', threadId);
      expect(human.code).toBe(0);
      expect(human.stdout).toBe(`Nothing to stop: ${threadId} has no run in progress.\n`);

      const unknown = await stackbone(server.url, 'session', 'stop', randomUUID());
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('not_found');
    });
  });
}
