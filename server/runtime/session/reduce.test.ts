import { describe, expect, it } from 'vitest';
import type { SessionEvent, StoredEvent } from '../../store/events';
import { emptyView, reduceAll } from './reduce';

const stored = (events: SessionEvent[]): StoredEvent[] => events.map((event, index) => ({ seq: index + 1, at: '2026-01-01T00:00:00.000Z', event }));

describe('reduce', () => {
  it("a retry keeps completed steps and tool results and takes out only the failed step's partial output", () => {
    const view = reduceAll(
      stored([
        { type: 'run_started', runId: 'r1', source: 'agui' },
        { type: 'message_added', message: { id: 'u1', role: 'user', content: 'look it up, then answer' } },
        {
          type: 'assistant_step',
          finishReason: 'tool-calls',
          message: { id: 'a1', role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'lookupOrder', input: { orderId: 'po_42' } }] },
        },
        { type: 'tool_result', output: { ok: true }, message: { id: 't1', role: 'tool', toolCallId: 'c1', toolName: 'lookupOrder', content: '{"ok":true}' } },
        { type: 'assistant_step', finishReason: 'error', message: { id: 'a2', role: 'assistant', content: 'The order is' } },
        { type: 'run_failed', runId: 'r1', code: 'model_error', message: 'overloaded' },
        { type: 'run_started', runId: 'r2', source: 'agui', retry: { retryId: 'x', attempt: 2 } },
      ]),
    );
    expect(view.messages.map((message) => message.id)).toEqual(['u1', 'a1', 't1']);
    expect(view).toMatchObject({ status: 'running', lastRun: { runId: 'r2', attempt: 2 }, retries: { x: 'r2' } });
  });

  it('a failed turn marks the reply it cut short, through later turns; a retry takes the mark away with the reply', () => {
    const failed: SessionEvent[] = [
      { type: 'run_started', runId: 'r1', source: 'agui' },
      { type: 'message_added', message: { id: 'u1', role: 'user', content: 'answer' } },
      { type: 'assistant_step', finishReason: 'error', message: { id: 'a1', role: 'assistant', content: 'token1 token2' } },
      { type: 'run_failed', runId: 'r1', code: 'model_error', message: 'overloaded', details: { reference: '0a1b2c3d', retryable: true } },
    ];
    const mark = { messageId: 'a1', code: 'model_error', message: 'overloaded', reference: '0a1b2c3d' };
    expect(reduceAll(stored(failed)).failedReplies).toEqual([mark]);
    const later = reduceAll(
      stored([
        ...failed,
        { type: 'run_started', runId: 'r2', source: 'agui' },
        { type: 'message_added', message: { id: 'u2', role: 'user', content: 'next' } },
        { type: 'assistant_step', finishReason: 'stop', message: { id: 'a2', role: 'assistant', content: 'done' } },
        { type: 'run_finished', runId: 'r2', outcome: { type: 'success' } },
      ]),
    );
    expect(later.failedReplies).toEqual([mark]);
    expect(reduceAll(stored([...failed, { type: 'run_started', runId: 'r2', source: 'agui', retry: { retryId: 'x', attempt: 2 } }])).failedReplies).toEqual([]);
    // A failure before any reply marks nothing.
    expect(reduceAll(stored([failed[0]!, failed[1]!, failed[3]!])).failedReplies).toEqual([]);
  });

  it('folds a turn into messages, state and an idle status', () => {
    const view = reduceAll(
      stored([
        { type: 'run_started', runId: 'r1', source: 'agui' },
        { type: 'message_added', message: { id: 'u1', role: 'user', content: 'plan a launch' } },
        {
          type: 'assistant_step',
          finishReason: 'tool-calls',
          message: { id: 'a1', role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'write_todos', input: { todos: [] } }] },
        },
        { type: 'tool_started', toolCallId: 'c1', toolName: 'write_todos', attempt: 1 },
        { type: 'tool_result', output: { todos: 1 }, message: { id: 't1', role: 'tool', toolCallId: 'c1', toolName: 'write_todos', content: '{"todos":1}' } },
        { type: 'state_patched', patch: [{ op: 'replace', path: '/todos', value: [{ id: '1', title: 'Write post', status: 'pending' }] }] },
        { type: 'assistant_step', finishReason: 'stop', message: { id: 'a2', role: 'assistant', content: 'Planned.' } },
        { type: 'run_finished', runId: 'r1', outcome: { type: 'success' } },
      ]),
      { todos: [], draft: '' },
    );
    expect(view.seq).toBe(8);
    expect(view.status).toBe('idle');
    expect(view.messages.map((message) => message.id)).toEqual(['u1', 'a1', 't1', 'a2']);
    expect(view.state).toEqual({ todos: [{ id: '1', title: 'Write post', status: 'pending' }], draft: '' });
    expect(view.openToolCalls).toEqual([]);
    expect(view.toolAttempts).toEqual({ c1: 1 });
    expect(view.lastRun).toMatchObject({ runId: 'r1', startSeq: 1, outcome: { type: 'success' } });
  });

  it('keeps a tool call open until its result arrives, and counts attempts', () => {
    const view = reduceAll(
      stored([
        { type: 'run_started', runId: 'r1', source: 'agui' },
        {
          type: 'assistant_step',
          finishReason: 'tool-calls',
          message: {
            id: 'a1',
            role: 'assistant',
            content: '',
            toolCalls: [
              { id: 'c1', name: 'lookupOrder', input: {} },
              { id: 'c2', name: 'pickColor', input: {} },
            ],
          },
        },
        { type: 'tool_started', toolCallId: 'c1', toolName: 'lookupOrder', attempt: 1 },
        { type: 'tool_started', toolCallId: 'c1', toolName: 'lookupOrder', attempt: 2 },
      ]),
    );
    expect(view.status).toBe('running');
    expect(view.openToolCalls.map((call) => call.id)).toEqual(['c1', 'c2']);
    expect(view.toolAttempts.c1).toBe(2);
  });

  it('marks a run waiting on frontend tools, failed, or cancelled', () => {
    const base: SessionEvent[] = [{ type: 'run_started', runId: 'r1', source: 'agui' }];
    expect(reduceAll(stored([...base, { type: 'run_finished', runId: 'r1', outcome: { type: 'success', pendingToolCallIds: ['c9'] } }])).status).toBe(
      'awaiting_tools',
    );
    const failed = reduceAll(stored([...base, { type: 'run_failed', runId: 'r1', code: 'model_error', message: 'boom' }]));
    expect(failed.status).toBe('error');
    expect(failed.lastRun?.error).toEqual({ code: 'model_error', message: 'boom' });
    expect(reduceAll(stored([...base, { type: 'run_finished', runId: 'r1', outcome: { type: 'cancelled' } }])).status).toBe('idle');
  });

  it('never mutates the view it folds from', () => {
    const initial = emptyView({ todos: [] });
    const frozen = JSON.stringify(initial);
    reduceAll(stored([{ type: 'state_patched', patch: [{ op: 'add', path: '/todos/0', value: 'x' }] }]), {}, initial);
    expect(JSON.stringify(initial)).toBe(frozen);
  });
});
