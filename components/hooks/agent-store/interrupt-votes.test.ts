// What the approval card reads of a call that needs a quorum (docs/approvals.md, "Quorum and
// separation of duties"): how many approvals, who voted so far by their key's name, and whether
// the viewer is its requester, who may only withdraw it.
import { describe, expect, it } from 'vitest';
import type { Interrupt } from '@ag-ui/client';
import { interruptDetails } from './interrupt-resolution';

const interrupt = (metadata: Record<string, unknown>): Interrupt =>
  ({
    id: 'int_1',
    reason: 'tool_call',
    message: 'Pay out 500',
    toolCallId: 'c1',
    responseSchema: {},
    metadata: { toolName: 'payOut', ...metadata },
  }) as Interrupt;

describe('a call that needs a quorum', () => {
  it('reads the quorum and the votes by name, an unnamed key as a key holder; a list of approvers is for keys', () => {
    const details = interruptDetails(
      interrupt({
        approvers: ['key:finance'],
        quorum: 2,
        votes: [{ status: 'approved', by: { source: 'hitl', keyName: 'bob' } }, { status: 'denied', by: { source: 'studio' } }, { status: 'maybe' }],
      }),
    );
    expect(details.quorum).toEqual({
      required: 2,
      votes: [
        { status: 'approved', name: 'bob' },
        { status: 'denied', name: 'a key holder' },
      ],
    });
    expect(details.keyHoldersDecide).toBe(true);
    expect(details.requesterExcluded).toBe(false);
  });

  it('has none for an ordinary approval, and says when the requester may only withdraw it', () => {
    expect(interruptDetails(interrupt({})).quorum).toBeUndefined();
    expect(interruptDetails(interrupt({})).requesterExcluded).toBe(false);
    expect(interruptDetails(interrupt({ approvers: ['key:finance'], requesterMayApprove: false })).requesterExcluded).toBe(true);
  });
});
