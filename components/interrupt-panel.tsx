'use client';
// Above the composer while the agent waits on people: how much of the batch is decided, the
// cards that have no tool call in the conversation to sit next to (e.g. raised inside a
// subagent), and a retry when the batch's submission failed.
import { ApprovalCard } from './approval-card';
import type { PendingInterrupt } from './hooks/useAgent';
import { useViewer } from './viewer';

export interface InterruptPanelProps {
  interrupts: readonly PendingInterrupt[];
  /** Interrupts whose cards are not in the message list. */
  unplaced: readonly PendingInterrupt[];
  busy: boolean;
  /** The last submission failed in a way that sending the same decisions again may fix. */
  canRetry: boolean;
  onRetry: () => void;
}

export function InterruptPanel({ interrupts, unplaced, busy, canRetry, onRetry }: InterruptPanelProps) {
  const viewer = useViewer();
  if (interrupts.length === 0) return null;
  const decided = interrupts.filter((interrupt) => interrupt.resolution && interrupt.resolution.problems.length === 0).length;
  const allDecided = decided === interrupts.length;
  return (
    <div className="interrupt-panel" data-testid="interrupt-panel">
      {unplaced.map((interrupt) => (
        <ApprovalCard key={interrupt.id} interrupt={interrupt} busy={busy} batch={batchPosition(interrupts, interrupt)} />
      ))}
      <div className="interrupt-progress" data-testid="interrupt-progress" data-decided={decided} data-total={interrupts.length}>
        {interrupts.length > 1 ? (
          <span>
            {decided} of {interrupts.length} decided
            {allDecided ? '' : ' — the batch is sent when every one is decided.'}
          </span>
        ) : (
          <span>
            {interrupts[0]!.keyHoldersDecide && !viewer.keyHolder
              ? 'The agent is waiting for a key holder’s decision.'
              : 'The agent is waiting for your decision.'}
          </span>
        )}
        {canRetry && (
          <button type="button" className="button" data-testid="retry-interrupts-button" disabled={busy} onClick={onRetry}>
            Send decisions again
          </button>
        )}
      </div>
    </div>
  );
}

/** Where an interrupt sits in its batch, for cards of batches of more than one. */
export function batchPosition(interrupts: readonly PendingInterrupt[], interrupt: PendingInterrupt) {
  return interrupts.length > 1 ? { index: interrupts.indexOf(interrupt), size: interrupts.length } : undefined;
}
