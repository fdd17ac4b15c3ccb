// The diff a replay prints: calls added, removed or with other arguments, calls whose need for
// approval changed, decisions no call took and interrupts nobody decided, the final answer.
import { describe, expect, it } from 'vitest';
import { diffReplay } from './diff';
import type { RecordedCall, Recording } from './recording';

const call = (toolName: string, input: unknown, askedApproval = false): RecordedCall => ({ toolCallId: `c_${toolName}`, toolName, input, askedApproval });
const recording = (calls: RecordedCall[], finalAnswer = 'Done.', answers = [finalAnswer]): Recording => ({
  turns: answers.map(() => []),
  calls,
  decisions: [],
  finalAnswer,
  answers,
  models: [],
});
const noDecisions = { unrecorded: [], unused: [], notApplied: [] };

describe('diffReplay', () => {
  it('finds nothing when the same calls, with the same approvals, end in the same answer', () => {
    const calls = [call('lookupOrder', { orderId: 'po_42' }), call('refundPayment', { orderId: 'po_42', amount: 5 }, true)];
    const diff = diffReplay(recording(calls), recording([...calls].reverse()), noDecisions);
    expect(diff.identical).toBe(true);
    expect(diff.finalAnswer).toBeNull();
  });

  it('tells a call with other arguments from an added and a removed one', () => {
    const diff = diffReplay(
      recording([call('refundPayment', { orderId: 'po_42', amount: 5 }, true), call('closeTicket', { ticketId: 'T-7' }, true)]),
      recording([call('refundPayment', { orderId: 'po_42', amount: 3 }, true), call('lookupOrder', { orderId: 'po_42' })]),
      noDecisions,
    );
    expect(diff.identical).toBe(false);
    expect(diff.calls.changed).toEqual([{ toolName: 'refundPayment', before: { orderId: 'po_42', amount: 5 }, after: { orderId: 'po_42', amount: 3 } }]);
    expect(diff.calls.added).toEqual([{ toolName: 'lookupOrder', input: { orderId: 'po_42' } }]);
    expect(diff.calls.removed).toEqual([{ toolName: 'closeTicket', input: { ticketId: 'T-7' } }]);
  });

  it('reports a call that newly needs approval and one that no longer does', () => {
    const diff = diffReplay(
      recording([call('lookupOrder', { orderId: 'po_42' }), call('closeTicket', { ticketId: 'T-7' }, true)]),
      recording([call('lookupOrder', { orderId: 'po_42' }, true), call('closeTicket', { ticketId: 'T-7' })]),
      noDecisions,
    );
    expect(diff.approvals).toEqual({
      newlyNeeded: [{ toolName: 'lookupOrder', input: { orderId: 'po_42' } }],
      noLongerNeeded: [{ toolName: 'closeTicket', input: { ticketId: 'T-7' } }],
    });
    expect(diff.identical).toBe(false);
  });

  it("reports an earlier turn whose answer changed, even when the last one's did not", () => {
    const diff = diffReplay(recording([], 'Closed.', ['Refunded $10.00.', 'Closed.']), recording([], 'Closed.', ['Not run.', 'Closed.']), noDecisions);
    expect(diff.answers).toEqual([{ turn: 1, before: 'Refunded $10.00.', after: 'Not run.' }]);
    expect(diff.finalAnswer).toBeNull();
    expect(diff.identical).toBe(false);
  });

  it('reports unused and unrecorded decisions and a changed final answer', () => {
    const diff = diffReplay(recording([], 'Refunded $5.00.'), recording([], 'I cannot refund.'), {
      unused: [
        { interruptId: 'i1', toolName: 'refundPayment', input: { amount: 5 }, reason: 'tool_call', decision: { status: 'approved', by: { source: 'hitl' } } },
      ],
      unrecorded: [{ toolName: 'lookupOrder', input: { orderId: 'po_42' }, reason: 'tool_call' }],
      notApplied: [],
    });
    expect(diff.decisions.unused).toEqual([{ toolName: 'refundPayment', input: { amount: 5 }, status: 'approved' }]);
    expect(diff.decisions.unrecorded).toEqual([{ toolName: 'lookupOrder', input: { orderId: 'po_42' }, reason: 'tool_call' }]);
    expect(diff.finalAnswer).toEqual({ before: 'Refunded $5.00.', after: 'I cannot refund.' });
    expect(diff.identical).toBe(false);
  });
});
