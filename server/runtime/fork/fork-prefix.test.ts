import { describe, expect, it } from 'vitest';
import type { InterruptRecord } from '../../store/pauses';
import type { SessionEvent, StoredEvent } from '../../store/events';
import { notableEvents } from '../../store/notices';
import { Refusal } from '../errors';
import { forkPrefix } from './fork-prefix';

const record = (id: string, toolCallId: string): InterruptRecord => ({
  id,
  reason: 'tool_call',
  toolCallId,
  toolName: 'refundPayment',
  input: { orderId: 'po_1', amount: 5 },
  message: 'Refund po_1',
  responseSchema: {},
  allowedDecisions: ['approve', 'reject'],
  onExpire: 'deny',
  expiresAt: '2026-12-01T10:10:00.000Z',
  schemaHash: 'h',
  runId: 'run-2',
  agent: 'helpdesk',
});

/**
 * A thread: a lookup that ran (run 1), then a refund that paused (run 2), was approved and ran,
 * with a grant on the way.
 */
const EVENTS: SessionEvent[] = [
  { type: 'run_started', runId: 'run-1', source: 'agui', inputs: 1 },
  { type: 'message_added', message: { id: 'u1', role: 'user', content: 'look up po_1' } },
  {
    type: 'assistant_step',
    message: { id: 'a1', role: 'assistant', content: '', toolCalls: [{ id: 'call-lookup', name: 'lookupOrder', input: {} }] },
    finishReason: 'tool-calls',
  },
  { type: 'tool_started', toolCallId: 'call-lookup', toolName: 'lookupOrder', attempt: 1 },
  { type: 'tool_result', message: { id: 't1', role: 'tool', toolCallId: 'call-lookup', toolName: 'lookupOrder', content: 'delivered' }, output: 'delivered' },
  { type: 'assistant_step', message: { id: 'a2', role: 'assistant', content: 'It was delivered.' }, finishReason: 'stop' },
  { type: 'run_finished', runId: 'run-1', outcome: { type: 'success' } },
  { type: 'run_started', runId: 'run-2', source: 'agui', inputs: 1 },
  { type: 'message_added', message: { id: 'u2', role: 'user', content: 'refund it' } },
  {
    type: 'assistant_step',
    message: { id: 'a3', role: 'assistant', content: '', toolCalls: [{ id: 'call-refund', name: 'refundPayment', input: {} }] },
    finishReason: 'tool-calls',
  },
  { type: 'interrupts_opened', interrupts: [record('int-1', 'call-refund')] },
  { type: 'run_finished', runId: 'run-2', outcome: { type: 'interrupt', interruptIds: ['int-1'] } },
  {
    type: 'interrupt_decided',
    interruptId: 'int-1',
    decision: { status: 'approved', by: { source: 'agui', ownerId: 'local' } },
  },
  {
    type: 'grant_added',
    grant: { id: 'grant-1', toolName: 'refundPayment', agent: 'helpdesk', scope: 'session', by: { source: 'agui' }, fromInterruptId: 'int-1' },
  },
];
const LOG: StoredEvent[] = EVENTS.map((event, index) => ({ seq: index + 1, at: `2026-12-01T10:0${Math.min(index, 9)}:00.000Z`, event }));
const NOW = new Date('2026-12-02T09:00:00.000Z');
const point = (atMessageId: string, mode: 'fork' | 'edit' | 'regenerate' = 'fork') => ({ threadId: 'T', atMessageId, mode, initialState: {}, now: NOW });

describe('a fork’s first events', () => {
  it('at an assistant step: its tool ran and is inherited, and what came after the step is not copied', () => {
    const prefix = forkPrefix(LOG, point('a1'));
    expect(prefix.throughSeq).toBe(5);
    expect(prefix.inherited).toEqual([{ toolCallId: 'call-lookup', toolName: 'lookupOrder' }]);
    expect(prefix.view.messages.map((message) => message.id)).toEqual(['u1', 'a1', 't1']);
    // Run 1 was cut short of its end: it is ended in the fork, which is at rest.
    expect(prefix.events.at(-1)).toEqual({ type: 'run_finished', runId: 'run-1', outcome: { type: 'success' } });
    expect(prefix.view.status).toBe('idle');
    expect(prefix.view.openToolCalls).toEqual([]);
  });

  it('at a call that waits on a person: a fresh interrupt, under a new id, with its whole wait from now; the decision after it is not copied', () => {
    const prefix = forkPrefix(LOG, point('a3'));
    expect(prefix.freshInterrupts).toHaveLength(1);
    const [fresh] = prefix.freshInterrupts;
    expect(fresh!.id).not.toBe('int-1');
    expect(fresh!.toolCallId).toBe('call-refund');
    // It had 10 minutes when it opened at 10:00 (the event's time): it has 10 minutes from now.
    expect(fresh!.expiresAt).toBe(new Date(NOW.getTime() + (Date.parse('2026-12-01T10:10:00.000Z') - Date.parse('2026-12-01T10:09:00.000Z'))).toISOString());
    expect(prefix.view.status).toBe('interrupted');
    expect(Object.keys(prefix.view.interrupts)).toEqual([fresh!.id]);
    expect(JSON.stringify(prefix.events)).not.toContain('int-1');
    expect(prefix.events.some((event) => event.type === 'interrupt_decided' || event.type === 'grant_added')).toBe(false);
    // The fresh request is news; the copied history is not.
    expect(notableEvents('s', 1, prefix.events).map((notice) => notice.type)).toEqual(['interrupt.opened']);
  });

  it('after the decision: decided interrupts keep their history under new ids, and the grant does not carry over', () => {
    const whole = forkPrefix(
      [...LOG, { seq: 15, at: LOG[13]!.at, event: { type: 'message_added', message: { id: 'u3', role: 'user', content: 'thanks' } } }],
      point('u3'),
    );
    const decided = whole.events.find((event) => event.type === 'interrupt_decided');
    expect(decided).toMatchObject({ decision: { status: 'approved' } });
    expect((decided as { interruptId: string }).interruptId).not.toBe('int-1');
    expect(Object.values(whole.view.grants)).toEqual([]);
    expect(whole.freshInterrupts).toEqual([]);
  });

  it('edit: everything before the user message, not the run it started; regenerate: before the reply, its run ended there', () => {
    const edit = forkPrefix(LOG, point('u2', 'edit'));
    expect(edit.throughSeq).toBe(7);
    expect(edit.events.some((event) => event.type === 'run_started' && event.runId === 'run-2')).toBe(false);
    expect(edit.view.messages.map((message) => message.id)).toEqual(['u1', 'a1', 't1', 'a2']);

    const regenerate = forkPrefix(LOG, point('a2', 'regenerate'));
    expect(regenerate.view.messages.map((message) => message.id)).toEqual(['u1', 'a1', 't1']);
    expect(regenerate.view.status).toBe('idle');
    expect(regenerate.inherited).toEqual([{ toolCallId: 'call-lookup', toolName: 'lookupOrder' }]);
  });

  it('lists the effects the original made after the fork point as dropped, not those before it', () => {
    const ran: StoredEvent[] = [
      ...LOG,
      { seq: 15, at: LOG[13]!.at, event: { type: 'tool_started', toolCallId: 'call-refund', toolName: 'refundPayment', attempt: 1 } },
      {
        seq: 16,
        at: LOG[13]!.at,
        event: {
          type: 'tool_result',
          message: { id: 't2', role: 'tool', toolCallId: 'call-refund', toolName: 'refundPayment', content: 'refunded' },
          output: { refundId: 'r1' },
        },
      },
    ];
    expect(forkPrefix(ran, point('a1')).dropped).toEqual([{ toolCallId: 'call-refund', toolName: 'refundPayment', input: {}, output: { refundId: 'r1' } }]);
    expect(forkPrefix(ran, point('u1')).dropped.map((effect) => effect.toolCallId)).toEqual(['call-lookup', 'call-refund']);
    const forked = forkPrefix(ran, point('a1')).events.find((event) => event.type === 'thread_forked');
    expect(forked).toMatchObject({ dropped: [{ toolCallId: 'call-refund' }] });
  });

  it('refuses a message that is not there, and an edit or regenerate at a message of the other kind', () => {
    expect(() => forkPrefix(LOG, point('nope'))).toThrow(Refusal);
    expect(() => forkPrefix(LOG, point('a2', 'edit'))).toThrow(/only a user message/);
    expect(() => forkPrefix(LOG, point('u1', 'regenerate'))).toThrow(/only an assistant reply/);
  });
});
