// The tool gate's receipt check (docs/approvals.md, "Signed receipts"): an approved call runs only
// with the arguments its signed receipt approved; a log changed after the decision runs nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findAgent } from '../../agents';
import { receiptClaims, signReceipt } from '../../receipts';
import type { Decision, InterruptRecord } from '../../store/pauses';
import { emptyView } from '../session';
import { gateToolCall } from './tool-gate';

const record = {
  id: 'int_1',
  reason: 'tool_call',
  toolCallId: 'call_1',
  toolName: 'closeTicket',
  input: { ticketId: 'T-7' },
  runId: 'run_1',
} as InterruptRecord;
const subject = { issuer: 'http://127.0.0.1', sessionKey: 't1', record, decidedAt: new Date().toISOString() };

beforeEach(() => {
  vi.stubEnv('STACKBONE_SECRET', 'g'.repeat(64));
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** The gate for call_1 in a thread whose approval is `decision`, the call's arguments `input`. */
async function gate(decision: Decision, input: unknown = record.input) {
  const helpdesk = findAgent('helpdesk')!;
  const view = emptyView(helpdesk.initialState);
  view.interrupts[record.id] = { record, decision, openedAt: subject.decidedAt, decidedSeq: 2 } as never;
  return gateToolCall({
    view,
    agent: helpdesk,
    call: { id: 'call_1', name: 'closeTicket', input },
    kind: 'backend',
    sessionId: 'o1/t1',
    sessionOwnerId: 'o1',
    runId: 'run_2',
    durable: true,
  });
}

const signed = async (decision: Decision) => ({ ...decision, receipt: await signReceipt(receiptClaims(subject, { kind: 'decision', decision })) });

describe('the tool gate checks the approval receipt', () => {
  it('runs a call whose receipt approves its arguments, edited or not', async () => {
    const approved = await signed({ status: 'approved', by: { source: 'agui', ownerId: 'o1' } });
    expect(await gate(approved)).toMatchObject({ action: 'run' });
    const edited = await signed({ status: 'approved', editedArgs: { ticketId: 'T-8' }, by: { source: 'hitl', ownerId: 'o1' } });
    expect(await gate(edited)).toMatchObject({ action: 'run', editedArgs: { ticketId: 'T-8' } });
  });

  it('runs nothing when the log no longer matches the receipt: other arguments, an edit swapped, a rejection turned approval', async () => {
    const approved = await signed({ status: 'approved', by: { source: 'agui', ownerId: 'o1' } });
    expect(await gate(approved, { ticketId: 'T-99' })).toMatchObject({
      action: 'refuse',
      content: expect.stringContaining('Not run: the signed receipt of its approval does not hold (the arguments given are not the ones the receipt approved'),
    });
    const edited = await signed({ status: 'approved', editedArgs: { ticketId: 'T-8' }, by: { source: 'hitl', ownerId: 'o1' } });
    expect(await gate({ ...edited, editedArgs: { ticketId: 'T-9' } })).toMatchObject({ action: 'refuse' });
    const rejection = await signed({ status: 'denied', by: { source: 'agui', ownerId: 'o1' } });
    expect(await gate({ ...rejection, status: 'approved' })).toMatchObject({ action: 'refuse', content: expect.stringContaining('does not approve the call') });
    // A decision written before receipts existed runs as it did.
    expect(await gate({ status: 'approved', by: { source: 'agui', ownerId: 'o1' } })).toMatchObject({ action: 'run' });
  });
});
