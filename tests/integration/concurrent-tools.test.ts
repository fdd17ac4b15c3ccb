// Concurrent tools against real servers (docs/turn-control.md, "Concurrent tools"): the calls of
// one step start together — the log shows every call started before any result — while a call
// that needs approval waits alone; calls sharing a lane (the helpdesk agent's refunds, in lane
// "ledger") run one at a time, in the model's order.
import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { readSessionEvents } from '../support/inspect';

type Finished = BaseEvent & { outcome: { type: string; interrupts?: { id: string; toolCallId?: string }[] } };

async function toolOrder(databaseUrl: string, threadId: string) {
  const events = await readSessionEvents(databaseUrl, threadId);
  return events.flatMap((event) =>
    event.type === 'tool_started' ? [`started ${event.toolCallId}`] : event.type === 'tool_result' ? [`result ${event.message.toolCallId}`] : [],
  );
}

for (const server of backends()) {
  describe(`concurrent tools on ${server.kind}`, () => {
    it('two concurrent tools with one needing approval: both lookups start before either ends; the refund waits for its decision', async () => {
      const threadId = randomUUID();
      const paused = await postRun(server.url, 'helpdesk', {
        threadId,
        runId: randomUUID(),
        messages: [userMessage('look up order po_1 and look up order po_7 and refund order po_42 for 5')],
      });
      const finished = paused.events.at(-1) as Finished;
      expect(finished.outcome.type).toBe('interrupt');
      expect(finished.outcome.interrupts).toHaveLength(1);
      const events = await readSessionEvents(server.databaseUrl, threadId);
      const lookups = events.flatMap((event) => (event.type === 'tool_started' && event.toolName === 'lookupOrder' ? [event.toolCallId] : []));
      expect(lookups).toHaveLength(2);
      expect(await toolOrder(server.databaseUrl, threadId)).toEqual([
        `started ${lookups[0]}`,
        `started ${lookups[1]}`,
        `result ${lookups[0]}`,
        `result ${lookups[1]}`,
      ]);
      // Both results reached the client, the refund's card too.
      expect(paused.events.filter((event) => event.type === 'TOOL_CALL_RESULT')).toHaveLength(2);

      const resumed = await postRun(server.url, 'helpdesk', {
        threadId,
        runId: randomUUID(),
        messages: [],
        resume: [{ interruptId: finished.outcome.interrupts![0]!.id, status: 'resolved', payload: { approved: true } }],
      });
      expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect((await toolOrder(server.databaseUrl, threadId)).filter((entry) => entry.startsWith('started'))).toHaveLength(3);
    });

    it('toolLane ordering: two approved refunds in the "ledger" lane run one after the other, in the order the model made them', async () => {
      const threadId = randomUUID();
      const paused = await postRun(server.url, 'helpdesk', {
        threadId,
        runId: randomUUID(),
        messages: [userMessage('refund order po_42 for 5 and refund order po_7 for 2')],
      });
      const finished = paused.events.at(-1) as Finished;
      expect(finished.outcome.interrupts).toHaveLength(2);
      const resume = finished.outcome.interrupts!.map((interrupt) => ({ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }));
      const resumed = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [], resume });
      expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      const calls = (await readSessionEvents(server.databaseUrl, threadId)).flatMap((event) =>
        event.type === 'assistant_step' ? (event.message.toolCalls ?? []).map((call) => call.id) : [],
      );
      expect(calls).toHaveLength(2);
      expect(await toolOrder(server.databaseUrl, threadId)).toEqual([`started ${calls[0]}`, `result ${calls[0]}`, `started ${calls[1]}`, `result ${calls[1]}`]);
    });
  });
}
