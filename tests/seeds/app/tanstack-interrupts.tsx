// Seed snippets (TanStack AI, "Interrupts migration"; docs/seed-names.md): the "After" code of
// "Single approval", "Branch payloads and edits" and "Batches". They are fragments that
// name `interrupts`, `interrupt` and `resolveInterrupts` without saying where those come from;
// here useAgent gives them, and each fragment is the body of a click handler (its one adaptation
// besides the import). The "Before" code (addToolApprovalResponse) is TanStack's old API, not ours.
'use client';
import { useAgent, type PendingInterrupt } from '@/components/hooks/useAgent';

export function TransferApproval({ agent, threadId }: { agent: string; threadId: string }) {
  const { interrupts } = useAgent({ agent, threadId });

  const approveTransfer = () => {
    const interrupt = interrupts.find((item) => item.kind === 'tool-approval' && item.toolName === 'transfer');
    if (interrupt?.kind === 'tool-approval' && interrupt.toolName === 'transfer') {
      interrupt.resolveInterrupt(true);
    }
  };

  return <button onClick={approveTransfer}>Approve the transfer</button>;
}

export function BranchPayloads({ interrupt }: { interrupt: PendingInterrupt }) {
  const approveEdited = () => {
    interrupt.resolveInterrupt(true, {
      editedArgs: { amount: 12, recipient: 'Ada' }, // optional, approval-only, full replacement
      payload: { note: 'Reviewed' },
    });
  };
  const reject = () => {
    interrupt.resolveInterrupt(false, { payload: { reason: 'Policy limit' } });
  };

  return (
    <>
      <button onClick={approveEdited}>Approve with edits</button>
      <button onClick={reject}>Reject</button>
    </>
  );
}

export function BatchReview({ agent, threadId }: { agent: string; threadId: string }) {
  const { resolveInterrupts } = useAgent({ agent, threadId });

  const review = () => {
    resolveInterrupts((interrupt) => {
      if (interrupt.kind === 'tool-approval') {
        interrupt.resolveInterrupt(true, { payload: { note: 'Batch review' } });
        return;
      }
      interrupt.cancel();
    });
  };

  return <button onClick={review}>Review the batch</button>;
}
