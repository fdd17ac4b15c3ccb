// A replayed interrupt is answered by the recorded decision of the same call: same tool, deep-equal
// arguments (key order aside), each decision used once; the rest is reported as unused.
import { describe, expect, it } from 'vitest';
import { decisionMatcher } from './matching';
import type { RecordedDecision } from './recording';

const decided = (toolName: string, input: unknown, status: 'approved' | 'denied'): RecordedDecision => ({
  interruptId: `int_${toolName}_${JSON.stringify(input)}`,
  toolName,
  input,
  reason: 'tool_call',
  decision: { status, by: { source: 'hitl', credential: 'key' } },
});

describe('decisionMatcher', () => {
  it('answers a call with the decision made on the same tool and the same arguments, whatever their key order', () => {
    const matcher = decisionMatcher([decided('refundPayment', { orderId: 'po_42', amount: 5 }, 'approved')]);
    expect(matcher.take('refundPayment', { amount: 5, orderId: 'po_42' })?.decision.status).toBe('approved');
    expect(matcher.unused()).toEqual([]);
  });

  it('does not answer a call with other arguments or another tool, and reports the decision as unused', () => {
    const recorded = decided('refundPayment', { orderId: 'po_42', amount: 5 }, 'approved');
    const matcher = decisionMatcher([recorded]);
    expect(matcher.take('refundPayment', { orderId: 'po_42', amount: 6 })).toBeUndefined();
    expect(matcher.take('closeTicket', { orderId: 'po_42', amount: 5 })).toBeUndefined();
    expect(matcher.unused()).toEqual([recorded]);
  });

  it('uses each decision once, in the order they were made: the same call twice takes the next one', () => {
    const matcher = decisionMatcher([decided('closeTicket', { ticketId: 'T-7' }, 'denied'), decided('closeTicket', { ticketId: 'T-7' }, 'approved')]);
    expect(matcher.take('closeTicket', { ticketId: 'T-7' })?.decision.status).toBe('denied');
    expect(matcher.take('closeTicket', { ticketId: 'T-7' })?.decision.status).toBe('approved');
    expect(matcher.take('closeTicket', { ticketId: 'T-7' })).toBeUndefined();
  });
});
