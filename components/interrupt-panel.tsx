'use client';
// Above the composer while the agent waits on people: what it waits for, with a button that
// takes you to the card; how much of a batch is decided; the cards that have no tool call in
// the conversation to sit next to (e.g. raised inside a subagent); and a retry when the
// batch's submission failed.
import { ArrowUpIcon } from 'lucide-react';
import { ApprovalCard } from './approval-card';
import { isDecided, waitsOnOthers } from './hooks/agent-store';
import type { PendingInterrupt } from './hooks/useAgent';
import { Button } from './ui/button';
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
  const decided = interrupts.filter((interrupt) => isDecided(interrupt.resolution)).length;
  const allDecided = decided === interrupts.length;
  const next = interrupts.find((interrupt) => !isDecided(interrupt.resolution));
  const placedNext = next && !unplaced.includes(next);
  return (
    <div className="space-y-2" data-testid="interrupt-panel">
      {unplaced.map((interrupt) => (
        <ApprovalCard key={interrupt.id} interrupt={interrupt} busy={busy} batch={batchPosition(interrupts, interrupt)} current={interrupt === next} />
      ))}
      <div
        className="flex flex-wrap items-center gap-2 rounded-lg border border-attention-border bg-attention px-3 py-1.5 text-sm"
        data-testid="interrupt-progress"
        data-decided={decided}
        data-total={interrupts.length}
      >
        <span>
          {busy && allDecided
            ? 'Decided — the agent is carrying on…'
            : interrupts.length > 1
              ? `${decided} of ${interrupts.length} decided${allDecided ? '' : ' — they go to the agent together once all are decided.'}`
              : waitsOnOthers(interrupts[0]!, viewer)
                ? `Waiting for ${interrupts[0]!.approvers ?? 'someone else'} to decide.`
                : interrupts[0]!.reason === 'input_required'
                  ? 'The agent is waiting for your answer.'
                  : 'The agent is waiting for your decision.'}
        </span>
        {placedNext && !busy && (
          <Button variant="link" size="sm" className="h-auto px-0" data-testid="show-card-button" onClick={() => showCard(next.id)}>
            <ArrowUpIcon aria-hidden /> Show
          </Button>
        )}
        {canRetry && (
          <Button size="sm" className="ml-auto" data-testid="retry-interrupts-button" disabled={busy} onClick={onRetry}>
            Send decisions again
          </Button>
        )}
      </div>
    </div>
  );
}

/** Brings a card back into view and focus after the reader scrolled away from it. */
function showCard(interruptId: string) {
  const card = document.querySelector<HTMLElement>(`[data-testid="approval-card"][data-interrupt-id="${CSS.escape(interruptId)}"]`);
  card?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  card?.focus({ preventScroll: true });
}

/** Where an interrupt sits in its batch, for cards of batches of more than one. */
export function batchPosition(interrupts: readonly PendingInterrupt[], interrupt: PendingInterrupt) {
  return interrupts.length > 1 ? { index: interrupts.indexOf(interrupt), size: interrupts.length } : undefined;
}
