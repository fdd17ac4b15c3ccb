// Human in the loop over AG-UI and the out-of-band API, against real servers (docs/hitl.md).
import { randomUUID } from 'node:crypto';
import { EventType, type BaseEvent, type CustomEvent, type RunFinishedEvent, type RunStartedEvent, type ToolCallResultEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import type { InterruptDecidedValue } from '../../server/contract';
import { joinStream, newHttpAgent, postRun, readThread, resumeHttpAgent, runHttpAgent, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { countRows, eventually, readSessionEvents } from '../support/inspect';

const finished = (events: BaseEvent[]) => events.at(-1) as RunFinishedEvent;
const types = (events: BaseEvent[]) => events.map((event) => event.type);
const interruptsOf = (events: BaseEvent[]) => {
  const outcome = finished(events).outcome;
  if (outcome?.type !== 'interrupt') throw new Error(`expected an interrupt outcome, got ${JSON.stringify(finished(events))}`);
  return outcome.interrupts as (Record<string, unknown> & { id: string; toolCallId: string })[];
};

async function pausedThread(url: string, agent: string, text: string) {
  const threadId = randomUUID();
  const runId = randomUUID();
  const first = await postRun(url, agent, { threadId, runId, messages: [userMessage(text)] });
  return { threadId, runId, events: first.events, interrupts: interruptsOf(first.events) };
}

const resumeBody = (threadId: string, parentRunId: string, resume: object[], extra: object = {}) => ({
  threadId,
  runId: randomUUID(),
  parentRunId,
  messages: [],
  resume,
  ...extra,
});

async function hitl(url: string, path: string, body?: object) {
  const response = await fetch(
    `${url}/api/hitl${path}`,
    body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {},
  );
  return { status: response.status, body: await response.json() };
}

for (const server of backends()) {
  const effectsOf = (toolCallId: string) => readLedger(server.ledgerFile).filter((line) => line.toolCallId === toolCallId);

  describe(`human in the loop on ${server.kind}`, () => {
    it('a gated tool streams its call, then the run ends with a snapshot and a complete interrupt', async () => {
      const { events, interrupts } = await pausedThread(server.url, 'helpdesk', 'refund order po_42 for 19.99');
      expect(types(events)).toEqual(expect.arrayContaining([EventType.TOOL_CALL_START, EventType.TOOL_CALL_ARGS, EventType.TOOL_CALL_END]));
      expect(types(events).slice(-3)).toEqual([EventType.MESSAGES_SNAPSHOT, EventType.STATE_SNAPSHOT, EventType.RUN_FINISHED]);
      expect(interrupts).toHaveLength(1);
      const [interrupt] = interrupts;
      const toolCall = events.find((event) => event.type === EventType.TOOL_CALL_START) as BaseEvent & { toolCallId: string };
      expect(interrupt).toMatchObject({
        id: expect.stringMatching(/^int_/),
        reason: 'tool_call',
        toolCallId: toolCall.toolCallId,
        message: 'Refund $19.99 on order po_42',
        responseSchema: {
          type: 'object',
          required: ['approved'],
          properties: { approved: { type: 'boolean' }, editedArgs: { type: 'object' }, payload: { type: 'object' } },
        },
        expiresAt: expect.any(String),
        description: 'Refund $19.99 on order po_42',
        allowedDecisions: ['approve', 'reject', 'edit'],
        metadata: {
          description: 'Refund $19.99 on order po_42',
          allowedDecisions: ['approve', 'reject', 'edit'],
          toolName: 'refundPayment',
          args: { orderId: 'po_42', amount: 19.99 },
        },
      });
      expect(Date.parse(interrupt!.expiresAt as string) - Date.now()).toBeGreaterThan(23 * 3600_000);
    });

    it('HttpAgent (protocol 1.0) gets the strict shape, holds the interrupt, and approves it', async () => {
      const agent = newHttpAgent(server.url, 'helpdesk');
      const paused = await runHttpAgent(agent, 'close ticket T-7');
      expect(paused.logged).toEqual([]);
      expect(agent.pendingInterrupts).toHaveLength(1);
      const interrupt = agent.pendingInterrupts[0]! as unknown as Record<string, unknown>;
      expect(interrupt).not.toHaveProperty('description');
      expect(interrupt).not.toHaveProperty('allowedDecisions');
      // The description is in the metadata only (a pause without a describe() is interrupt-record.test.ts's).
      expect(interrupt.metadata).toMatchObject({ allowedDecisions: ['approve', 'reject'], description: 'Close ticket T-7' });
      expect(interrupt.message).toBe('Close ticket T-7');
      const interruptedRunId = (paused.events[0] as RunStartedEvent).runId;

      const resumed = await resumeHttpAgent(agent, () => ({ status: 'resolved', payload: { approved: true } }));
      expect(resumed.logged).toEqual([]);
      expect((resumed.events[0] as RunStartedEvent).parentRunId).toBe(interruptedRunId);
      expect(types(resumed.events)).not.toContain(EventType.TOOL_CALL_START);
      const result = resumed.events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as ToolCallResultEvent;
      expect(result.toolCallId).toBe(interrupt.toolCallId);
      expect(JSON.parse(String(result.content))).toEqual({ closed: true, ticketId: 'T-7', summary: 'Closed ticket T-7.' });
      expect(String(agent.messages.at(-1)!.content)).toBe('Closed ticket T-7.');
      expect(agent.pendingInterrupts).toEqual([]);
    });

    it('approve with edits: the tool runs on the edited arguments and gets the payload', async () => {
      const { threadId, runId, interrupts } = await pausedThread(server.url, 'helpdesk', 'refund order po_42 for 19.99');
      const { events } = await postRun(
        server.url,
        'helpdesk',
        resumeBody(threadId, runId, [
          {
            interruptId: interrupts[0]!.id,
            status: 'resolved',
            payload: { approved: true, editedArgs: { orderId: 'po_42', amount: 5 }, payload: { note: 'partial' } },
          },
        ]),
      );
      const result = events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as ToolCallResultEvent;
      expect(JSON.parse(String(result.content))).toMatchObject({ refunded: true, orderId: 'po_42', amount: 5, note: 'partial' });
    });

    it('a decision with edits shows under its call: in the resume, in another client on the session stream, and after a reload', async () => {
      const { threadId, runId, interrupts } = await pausedThread(server.url, 'helpdesk', 'refund order po_42 for 19.99');
      const [refund] = interrupts;
      // A second client (another tab) follows the thread from where its page was rendered.
      const { body: page } = await readThread(server.url, 'helpdesk', threadId);
      expect(page.decisions).toEqual([]);
      const watching = joinStream(server.url, 'helpdesk', { threadId, offset: page.cursor }, { stop: ({ event }) => event.type === EventType.RUN_FINISHED });
      await new Promise((resolve) => setTimeout(resolve, 300));

      const { events } = await postRun(
        server.url,
        'helpdesk',
        resumeBody(threadId, runId, [
          { interruptId: refund!.id, status: 'resolved', payload: { approved: true, editedArgs: { orderId: 'po_42', amount: 15 } } },
        ]),
      );
      const decided = {
        interruptId: refund!.id,
        toolCallId: refund!.toolCallId,
        toolName: 'refundPayment',
        status: 'approved',
        argsAsked: { orderId: 'po_42', amount: 19.99 },
        editedArgs: { orderId: 'po_42', amount: 15 },
      };
      // The resume's own stream says it first, right after its start.
      expect(events[1]).toMatchObject({ type: EventType.CUSTOM, name: 'stackbone.interrupt_decided', value: { ...decided, by: 'agui' } });

      const seen = (await watching).events.filter(
        (event): event is CustomEvent => event.type === EventType.CUSTOM && (event as CustomEvent).name === 'stackbone.interrupt_decided',
      );
      expect(seen).toHaveLength(1);
      const value = seen[0]!.value as InterruptDecidedValue;
      expect(value).toMatchObject({ ...decided, by: 'agui', at: expect.any(String) });

      const { body: reloaded } = await readThread(server.url, 'helpdesk', threadId);
      expect(reloaded.decisions).toEqual([{ ...decided, interruptReason: 'tool_call', by: { source: 'agui', credential: expect.any(String) }, at: value.at }]);
      expect(reloaded.stoppedToolCallIds).toEqual([]);
    });

    it('deny: the tool does not run and the model continues, told so', async () => {
      const { threadId, runId, interrupts } = await pausedThread(server.url, 'ledger', 'call recordEffect {"key":"deny-me"}');
      const { events } = await postRun(
        server.url,
        'ledger',
        resumeBody(threadId, runId, [{ interruptId: interrupts[0]!.id, status: 'resolved', payload: { approved: false, reason: 'not today' } }]),
      );
      expect(effectsOf(interrupts[0]!.toolCallId)).toEqual([]);
      const result = events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as ToolCallResultEvent;
      expect(result.content).toContain('not today');
      const text = events
        .filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)
        .map((event) => (event as BaseEvent & { delta: string }).delta)
        .join('');
      expect(text).toBe("I didn't record effect: you declined it (“not today”).");
      expect(finished(events).outcome).toEqual({ type: 'success' });
    });

    it('cancel: never runs, recorded as cancelled (not denied), and the turn ends', async () => {
      const { threadId, runId, interrupts } = await pausedThread(server.url, 'ledger', 'call recordEffect {"key":"cancel-me"}');
      const { events } = await postRun(server.url, 'ledger', resumeBody(threadId, runId, [{ interruptId: interrupts[0]!.id, status: 'cancelled' }]));
      expect(finished(events).outcome).toEqual({ type: 'cancelled' });
      expect(types(events)).not.toContain(EventType.TEXT_MESSAGE_START);
      expect(effectsOf(interrupts[0]!.toolCallId)).toEqual([]);
      const log = await readSessionEvents(server.databaseUrl, threadId);
      expect(log.find((event) => event.type === 'interrupt_decided')).toMatchObject({ decision: { status: 'cancelled' } });
      expect(log.find((event) => event.type === 'tool_result')).toMatchObject({ status: 'cancelled' });
    });

    it('a batch of two interrupts must be addressed together', async () => {
      const { threadId, runId, interrupts } = await pausedThread(server.url, 'helpdesk', 'refund order po_1 for 5 and close ticket T-2');
      expect(interrupts).toHaveLength(2);
      const partial = await postRun(
        server.url,
        'helpdesk',
        resumeBody(threadId, runId, [{ interruptId: interrupts[0]!.id, status: 'resolved', payload: { approved: true } }]),
      );
      expect(partial.events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: 'resume_incomplete' });
      const both = await postRun(
        server.url,
        'helpdesk',
        resumeBody(
          threadId,
          runId,
          interrupts.map((interrupt) => ({ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } })),
        ),
      );
      // The two calls run side by side (docs/turn-control.md, "Concurrent tools"): both answered, in either order.
      expect(
        both.events
          .filter((event) => event.type === EventType.TOOL_CALL_RESULT)
          .map((event) => (event as ToolCallResultEvent).toolCallId)
          .sort(),
      ).toEqual(interrupts.map((interrupt) => interrupt.toolCallId).sort());
    });

    it('an identical replay of an applied resume runs nothing twice', async () => {
      const { threadId, runId, interrupts } = await pausedThread(server.url, 'ledger', 'call recordEffect {"key":"replay"}');
      const resume = [{ interruptId: interrupts[0]!.id, status: 'resolved', payload: { approved: true } }];
      await postRun(server.url, 'ledger', resumeBody(threadId, runId, resume));
      const rows = await countRows(server.databaseUrl, threadId);
      const replay = await postRun(server.url, 'ledger', resumeBody(threadId, runId, resume));
      expect(finished(replay.events)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
      expect(await countRows(server.databaseUrl, threadId)).toEqual(rows);
      expect(readLedger(server.ledgerFile).filter((line) => line.toolCallId === interrupts[0]!.toolCallId)).toHaveLength(2); // one attempt, one effect
    });

    describe('refused resumes are a RUN_ERROR with a code, and change nothing', () => {
      const cases: [string, (ids: { threadId: string; runId: string; interrupts: { id: string }[]; otherId: string }) => object, string][] = [
        [
          'a duplicated entry',
          ({ threadId, runId, interrupts }) =>
            resumeBody(
              threadId,
              runId,
              [0, 0].map(() => ({ interruptId: interrupts[0]!.id, status: 'resolved', payload: { approved: true } })),
            ),
          'resume_duplicate',
        ],
        [
          'an unknown interrupt id',
          ({ threadId, runId }) => resumeBody(threadId, runId, [{ interruptId: 'int_nope', status: 'resolved', payload: { approved: true } }]),
          'not_found',
        ],
        [
          "another thread's interrupt",
          ({ threadId, runId, otherId }) => resumeBody(threadId, runId, [{ interruptId: otherId, status: 'resolved', payload: { approved: true } }]),
          'interrupt_other_thread',
        ],
        [
          'a payload failing the approval schema',
          ({ threadId, runId, interrupts }) =>
            resumeBody(threadId, runId, [
              { interruptId: interrupts[0]!.id, status: 'resolved', payload: { approved: true, payload: { note: 'x'.repeat(501) } } },
            ]),
          'payload_invalid',
        ],
        [
          'edited arguments failing the input schema',
          ({ threadId, runId, interrupts }) =>
            resumeBody(threadId, runId, [
              { interruptId: interrupts[0]!.id, status: 'resolved', payload: { approved: true, editedArgs: { orderId: 'po_42', amount: 'lots' } } },
            ]),
          'edited_args_invalid',
        ],
        [
          'a rejection carrying edits',
          ({ threadId, runId, interrupts }) =>
            resumeBody(threadId, runId, [
              { interruptId: interrupts[0]!.id, status: 'resolved', payload: { approved: false, editedArgs: { orderId: 'po_42', amount: 1 } } },
            ]),
          'resume_invalid',
        ],
      ];
      for (const [name, body, code] of cases) {
        it(name, async () => {
          const paused = await pausedThread(server.url, 'helpdesk', 'refund order po_42 for 19.99');
          const other = await pausedThread(server.url, 'helpdesk', 'close ticket T-9');
          const before = await countRows(server.databaseUrl);
          const { events } = await postRun(server.url, 'helpdesk', body({ ...paused, otherId: other.interrupts[0]!.id }));
          expect(types(events)).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
          expect(events[1]).toMatchObject({ code });
          if (code === 'payload_invalid' || code === 'edited_args_invalid')
            expect(events[1]).toMatchObject({ metadata: { interruptId: paused.interrupts[0]!.id } });
          if (code === 'not_found') expect(events[1]).toMatchObject({ metadata: { what: 'interrupt', interruptId: 'int_nope' } });
          expect(await countRows(server.databaseUrl)).toEqual(before);
        });
      }
    });

    it('an expired interrupt takes its default action (deny) by itself, and a late resume is refused as expired', async () => {
      const { threadId, runId, interrupts } = await pausedThread(server.url, 'ledger', 'call expiringEffect {"key":"late"}');
      expect(interrupts[0]!.expiresAt).toBeDefined();
      // No client touches the session: the server's sweep applies the default and moves on.
      const log = await eventually(
        async () => {
          const events = await readSessionEvents(server.databaseUrl, threadId);
          return events.at(-1)?.type === 'run_finished' && events.some((event) => event.type === 'interrupt_decided') ? events : undefined;
        },
        10_000,
        'the expiry to be applied',
      );
      expect(log.find((event) => event.type === 'interrupt_decided')).toMatchObject({
        decision: { status: 'denied', expired: true, by: { source: 'expiry' } },
      });
      expect(effectsOf(interrupts[0]!.toolCallId)).toEqual([]);
      const late = await postRun(
        server.url,
        'ledger',
        resumeBody(threadId, runId, [{ interruptId: interrupts[0]!.id, status: 'resolved', payload: { approved: true } }]),
      );
      expect(late.events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: 'interrupt_expired' });
    });

    it('20 concurrent approvals through the HTTP API and AG-UI: one wins, the tool runs once', async () => {
      const { threadId, runId, interrupts } = await pausedThread(server.url, 'ledger', 'call recordEffect {"key":"race"}');
      const interruptId = interrupts[0]!.id;
      const attempts = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          index % 2 === 0
            ? hitl(server.url, `/${interruptId}/approve`, {}).then((response) => ({
                via: 'http',
                won: response.status === 200,
                code: response.body.error?.code,
              }))
            : postRun(server.url, 'ledger', resumeBody(threadId, runId, [{ interruptId, status: 'resolved', payload: { approved: true } }])).then(
                ({ events, status, text }) => ({
                  status,
                  text: events.length ? undefined : text,
                  via: 'agui',
                  // The winner carries the call out in its own stream; an identical replay only reports.
                  won: events.some((event) => event.type === EventType.TOOL_CALL_RESULT),
                  code: (events.at(-1) as (BaseEvent & { code?: string }) | undefined)?.code,
                }),
              ),
        ),
      );
      await eventually(
        async () => (await readSessionEvents(server.databaseUrl, threadId)).at(-1)?.type === 'run_finished',
        10_000,
        'the continuation to finish',
      );
      const log = await readSessionEvents(server.databaseUrl, threadId);
      expect(log.filter((event) => event.type === 'interrupt_decided')).toHaveLength(1);
      expect(log.filter((event) => event.type === 'tool_started')).toHaveLength(1);
      expect(effectsOf(interrupts[0]!.toolCallId).filter((line) => line.kind === 'effect')).toHaveLength(1);
      expect(effectsOf(interrupts[0]!.toolCallId).filter((line) => line.kind === 'attempt')).toHaveLength(1);
      expect(
        attempts.filter((attempt) => attempt.via === 'agui' && !('code' in attempt && attempt.code) && !attempt.won && (attempt as { text?: string }).text),
      ).toEqual([]);
      expect(attempts.filter((attempt) => attempt.won)).toHaveLength(1);
      for (const attempt of attempts.filter((attempt) => attempt.via === 'http' && !attempt.won)) expect(attempt.code).toBe('interrupt_already_decided');
    });

    it('out of band: GET /api/hitl lists it, an approval continues the run on the server, a second decision is refused', async () => {
      const { threadId, interrupts } = await pausedThread(server.url, 'helpdesk', 'refund order po_7 for 4.5');
      const listed = await hitl(server.url, '');
      expect(listed.status).toBe(200);
      expect(listed.body.interrupts.find((entry: { id: string }) => entry.id === interrupts[0]!.id)).toMatchObject({
        sessionId: threadId,
        agent: 'helpdesk',
        toolName: 'refundPayment',
        args: { orderId: 'po_7', amount: 4.5 },
        message: 'Refund $4.50 on order po_7',
        responseSchema: expect.any(Object),
        expiresAt: expect.any(String),
      });
      const approved = await hitl(server.url, `/${interrupts[0]!.id}/approve`, { payload: { note: 'ok' } });
      expect(approved.status).toBe(200);
      expect(approved.body.decision).toMatchObject({ status: 'approved', payload: { note: 'ok' }, by: { source: 'hitl' } });
      const again = await hitl(server.url, `/${interrupts[0]!.id}/reject`, { reason: 'changed my mind' });
      expect(again).toMatchObject({ status: 409, body: { error: { code: 'interrupt_already_decided' } } });
      // The continuation ran on the server: an AG-UI client that comes back sees it.
      await eventually(async () => (await readSessionEvents(server.databaseUrl, threadId)).at(-1)?.type === 'run_finished', 10_000, 'the continuation');
      const back = newHttpAgent(server.url, 'helpdesk', threadId);
      await runHttpAgent(back, 'thanks');
      expect(back.messages.some((message) => message.role === 'tool' && String(message.content).includes('"refunded":true'))).toBe(true);
      expect((await hitl(server.url, '')).body.interrupts.map((entry: { id: string }) => entry.id)).not.toContain(interrupts[0]!.id);
    });

    it('out of band errors: unknown id 404, bad body 400', async () => {
      expect(await hitl(server.url, '/int_missing/approve', {})).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
      const { interrupts } = await pausedThread(server.url, 'helpdesk', 'refund order po_42 for 1');
      expect(await hitl(server.url, `/${interrupts[0]!.id}/approve`, { editedArgs: { orderId: 'po_42', amount: 'x' } })).toMatchObject({
        status: 400,
        body: { error: { code: 'edited_args_invalid' } },
      });
      expect(await hitl(server.url, `/${interrupts[0]!.id}/approve`, { surprise: true })).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request' } },
      });
    });
  });
}

for (const server of backends()) {
  describe(`pauses beyond a top-level tool call on ${server.kind}`, () => {
    it('an approval raised inside a subagent is an interrupt of the root run, and resumes inside the subagent', async () => {
      const agent = newHttpAgent(server.url, 'ledger');
      const paused = await runHttpAgent(agent, 'research call recordEffect {"key":"delegated"}');
      expect(paused.logged).toEqual([]);
      expect(types(paused.events)).toEqual(expect.arrayContaining([EventType.STEP_STARTED, EventType.STEP_FINISHED]));
      const interrupt = agent.pendingInterrupts[0]! as unknown as { id: string; toolCallId: string; message: string; metadata: Record<string, unknown> };
      expect(interrupt.message).toBe('Record delegated (delegated)');
      expect(interrupt.metadata).toMatchObject({ agent: 'ledger-worker', toolName: 'recordEffect' });
      expect(readLedger(server.ledgerFile).filter((line) => line.toolCallId === interrupt.toolCallId)).toEqual([]);

      const resumed = await resumeHttpAgent(agent, () => ({ status: 'resolved', payload: { approved: true } }));
      expect(resumed.logged).toEqual([]);
      expect(readLedger(server.ledgerFile).filter((line) => line.toolCallId === interrupt.toolCallId && line.kind === 'effect')).toHaveLength(1);
      const delegation = resumed.events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as ToolCallResultEvent;
      expect(String(delegation.content)).toBe('Record effect — recorded: delegated; attempt: 1.');
      expect(finished(resumed.events).outcome).toEqual({ type: 'success' });
    });

    it('requestInput: an input_required interrupt whose validated answer reaches the tool', async () => {
      const agent = newHttpAgent(server.url, 'taskboard');
      await runHttpAgent(agent, 'ask me for a launch name');
      const interrupt = agent.pendingInterrupts[0]! as unknown as { id: string; reason: string; toolCallId: string; responseSchema: object };
      expect(interrupt).toMatchObject({ reason: 'input_required', responseSchema: { type: 'object', properties: { answer: { type: 'string' } } } });
      const bad = await postRun(server.url, 'taskboard', {
        threadId: agent.threadId,
        runId: randomUUID(),
        messages: [],
        resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { answer: 7 } }],
      });
      expect(bad.events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: 'payload_invalid' });
      const resumed = await resumeHttpAgent(agent, () => ({ status: 'resolved', payload: { answer: 'Liftoff' } }));
      const result = resumed.events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as ToolCallResultEvent;
      expect(result.toolCallId).toBe(interrupt.toolCallId);
      expect(JSON.parse(String(result.content))).toEqual({
        question: expect.any(String),
        answer: 'Liftoff',
        summary: expect.stringMatching(/^You answered “Liftoff” to “.+”\.$/),
      });
    });
  });
}
