// Seed 000's AG-UI requests (docs/internals/wires.md), sent as the document writes them — no
// message id on a tool result, no `tools`/`context`/`state` a hand-written request leaves out, no
// threadId for a stateless run — against a real server, on each database.
import { randomUUID } from 'node:crypto';
import { EventType, type RunErrorEvent, type RunFinishedEvent, type RunStartedEvent, type ToolCallStartEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { postRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { readSessionEvents } from '../support/inspect';

const types = (events: { type: string }[]) => events.map((event) => event.type);

async function pausedThread(url: string, agent: string, text: string) {
  const threadId = randomUUID();
  const { events } = await postRun(url, agent, { threadId, runId: randomUUID(), messages: [userMessage(text)] });
  const outcome = (events.at(-1) as RunFinishedEvent).outcome;
  if (outcome?.type !== 'interrupt') throw new Error(`expected an interrupt, got ${JSON.stringify(events.at(-1))}`);
  return { threadId, interrupts: outcome.interrupts };
}

for (const server of backends()) {
  describe(`seed 000's AG-UI requests as pasted, on ${server.kind}`, () => {
    it('a frontend tool’s result exactly as the seed shows it (no message id) continues the turn; sent again it adds nothing', async () => {
      const threadId = randomUUID();
      const tools = [{ name: 'openDialog', description: 'Open a confirmation dialog in the browser', parameters: { type: 'object', properties: {} } }];
      const first = await postRun(server.url, 'helpdesk', {
        threadId,
        runId: randomUUID(),
        messages: [userMessage('call openDialog {}')],
        tools,
        context: [],
        state: {},
        forwardedProps: {},
      });
      expect((first.events.at(-1) as RunFinishedEvent).outcome).toMatchObject({ type: 'success' });
      const call = first.events.find((event) => event.type === EventType.TOOL_CALL_START) as ToolCallStartEvent;
      expect(call.toolCallName).toBe('openDialog');

      // The seed's body: `{"threadId", "runId", "messages": [{"role": "tool", "toolCallId", "content"}]}`.
      const pasted = `{"threadId": "${threadId}", "runId": "${randomUUID()}", "messages": [{ "role": "tool", "toolCallId": "${call.toolCallId}", "content": "{\\"opened\\":true}" }]}`;
      const resumed = await postRun(server.url, 'helpdesk', pasted);
      expect(resumed.status).toBe(200);
      expect(types(resumed.events)).not.toContain(EventType.RUN_ERROR);
      expect(resumed.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
      expect(types(resumed.events)).toContain(EventType.TEXT_MESSAGE_CONTENT);
      const results = async () =>
        (await readSessionEvents(server.databaseUrl, threadId)).flatMap((event) =>
          event.type === 'message_added' && event.message.role === 'tool' && event.message.toolCallId === call.toolCallId ? [event.message] : [],
        );
      expect((await results()).map((message) => message.id)).toEqual([`tool-result:${call.toolCallId}`]);

      // The same result again names the same message: nothing new, nothing added.
      await postRun(server.url, 'helpdesk', pasted.replace(/"runId": "[^"]+"/, `"runId": "${randomUUID()}"`));
      expect(await results()).toHaveLength(1);
    });

    it('a paused run closes as the seed’s RUN_FINISHED shows it: an interrupt with id, reason, toolCallId, description, allowedDecisions and responseSchema', async () => {
      const threadId = randomUUID();
      const runId = randomUUID();
      const { events } = await postRun(server.url, 'helpdesk', { threadId, runId, messages: [userMessage('refund order po_42 for 19.99')] });
      expect(events.at(-1)).toMatchObject({
        type: 'RUN_FINISHED',
        threadId,
        runId,
        outcome: {
          type: 'interrupt',
          interrupts: [
            {
              id: expect.stringMatching(/^int_/),
              reason: 'tool_call',
              toolCallId: expect.any(String),
              description: expect.stringContaining('po_42'),
              allowedDecisions: expect.arrayContaining(['approve', 'reject']),
              responseSchema: expect.any(Object),
            },
          ],
        },
      });
    });

    it('the seed’s resume, as pasted (no tools, context or state), approves and the call runs once', async () => {
      const { threadId, interrupts } = await pausedThread(server.url, 'helpdesk', 'close ticket T-7');
      const pasted = `{
        "threadId": "${threadId}",
        "runId": "${randomUUID()}",
        "messages": [],
        "resume": [{ "interruptId": "${interrupts[0]!.id}", "status": "resolved", "payload": { "approved": true } }]
      }`;
      const { events } = await postRun(server.url, 'helpdesk', pasted);
      expect(events.filter((event) => event.type === EventType.TOOL_CALL_RESULT)).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
    });

    it('a stateless run (no threadId) runs the turn and keeps nothing', async () => {
      const { status, events } = await postRun(server.url, 'helpdesk', { runId: randomUUID(), messages: [userMessage('reply with 3 tokens')] });
      expect(status).toBe(200);
      const started = events[0] as RunStartedEvent;
      expect(started.type).toBe(EventType.RUN_STARTED);
      expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
      expect(events.filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)).toHaveLength(3);
      expect((await readThread(server.url, 'helpdesk', started.threadId)).status).toBe(404);
    });

    it('a stateless run cannot pause: a gated call is not run and the model is told, with no interrupt', async () => {
      const { events } = await postRun(server.url, 'helpdesk', { runId: randomUUID(), messages: [userMessage('refund order po_42 for 19.99')] });
      const finished = events.at(-1) as RunFinishedEvent;
      expect(finished.outcome).toMatchObject({ type: 'success' });
      const result = events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as { content: string } | undefined;
      expect(result?.content).toMatch(/Not run: .*needs a person's approval/);
    });

    it('a stateless run refuses only what needs a durable thread — a tool result, seeded state, a decision — with a RUN_ERROR that says so', async () => {
      const bodies = {
        toolResult: { runId: randomUUID(), messages: [{ role: 'tool', toolCallId: 'call_2', content: '{"opened":true}' }] },
        state: { runId: randomUUID(), messages: [userMessage('hello')], state: { draft: 'x' } },
        decisions: { runId: randomUUID(), messages: [], resume: [{ interruptId: 'int_abc', status: 'resolved', payload: { approved: true } }] },
      };
      for (const [needs, body] of Object.entries(bodies)) {
        const { status, events } = await postRun(server.url, 'helpdesk', body);
        expect(status, needs).toBe(200);
        expect(types(events), needs).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
        const error = events[1] as RunErrorEvent & { metadata?: { needs: string[] } };
        expect(error.code, needs).toBe('thread_required');
        expect(error.message).toMatch(/stateless run \(no threadId\) has nothing to resume against.*send the thread's threadId/);
        expect(error.metadata?.needs).toEqual([needs]);
      }
    });
  });
}
