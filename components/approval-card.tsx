'use client';
// One open interrupt: what the agent wants to do (the tool, its describe() line and
// arguments), when the question expires, and the form to decide it. In a batch the card keeps
// a staged decision until the last one is made, and the decision can be changed until then.
import { ApprovalDecisionForm, ProblemList } from './approval-decision-form';
import { asksForInput, type InterruptResolution } from './hooks/agent-store';
import type { PendingInterrupt } from './hooks/useAgent';
import { InputAnswerForm } from './input-answer-form';
import { useHydrated } from './use-hydrated';
import { useViewer } from './viewer';

export interface ApprovalCardProps {
  interrupt: PendingInterrupt;
  /** A run is in progress (e.g. this batch being submitted): nothing can be decided. */
  busy: boolean;
  /** Position in a batch of more than one. */
  batch?: { index: number; size: number };
}

export function ApprovalCard({ interrupt, busy, batch }: ApprovalCardProps) {
  const hydrated = useHydrated();
  const { resolution } = interrupt;
  const staged = resolution !== null && resolution.problems.length === 0;
  const input = asksForInput(interrupt);
  const disabled = !hydrated || busy;
  const viewer = useViewer();
  return (
    <section
      className={`approval-card${staged ? ' approval-card-staged' : ''}`}
      data-testid="approval-card"
      data-interrupt-id={interrupt.id}
      data-tool-call-id={interrupt.toolCallId}
      data-tool-name={interrupt.toolName}
      data-reason={interrupt.reason}
      data-state={staged ? 'staged' : resolution ? 'invalid' : 'open'}
      aria-label={input ? 'Question from the agent' : 'Approval needed'}
    >
      <header className="approval-header">
        <span className="approval-kind">{input ? 'Question' : 'Approval needed'}</span>
        {interrupt.toolName && <code className="tool-call-name">{interrupt.toolName}</code>}
        {interrupt.agent && <span className="approval-agent">by {interrupt.agent}</span>}
        {batch && (
          <span className="approval-batch" data-testid="approval-batch-position">
            {batch.index + 1} of {batch.size}
          </span>
        )}
      </header>
      <p className="approval-message" data-testid="approval-message">
        {interrupt.message ?? interrupt.description}
      </p>
      {!input && interrupt.args !== undefined && (
        <pre className="tool-call-json approval-args" data-testid="approval-args">
          {JSON.stringify(interrupt.args, null, 2)}
        </pre>
      )}
      {interrupt.expiresAt && <Expiry at={interrupt.expiresAt} hydrated={hydrated} />}
      {staged ? (
        <StagedDecision resolution={resolution} onChange={interrupt.clearResolution} disabled={disabled} />
      ) : (
        <>
          {resolution && <ProblemList problems={resolution.problems} />}
          {input ? (
            <InputAnswerForm interrupt={interrupt} disabled={disabled} />
          ) : interrupt.keyHoldersDecide && !viewer.keyHolder ? (
            <KeyHolderDecides interrupt={interrupt} disabled={disabled} />
          ) : (
            <ApprovalDecisionForm interrupt={interrupt} disabled={disabled} />
          )}
        </>
      )}
    </section>
  );
}

/** A call only a key holder may approve: this browser waits for their decision, and may withdraw the request. */
function KeyHolderDecides({ interrupt, disabled }: { interrupt: PendingInterrupt; disabled: boolean }) {
  return (
    <div className="approval-key-holders" data-testid="approval-key-holders">
      <p>A key holder approves or rejects this (in Studio or with the CLI); the conversation goes on here as soon as they do.</p>
      <button type="button" className="button button-quiet" data-testid="cancel-interrupt-button" disabled={disabled} onClick={() => void interrupt.cancel()}>
        Withdraw the request
      </button>
    </div>
  );
}

const STAGED_LABEL: Record<InterruptResolution['kind'], string> = {
  approve: 'Approved',
  edit: 'Approved with edits',
  reject: 'Rejected',
  cancel: 'Cancelled',
};

function StagedDecision({ resolution, onChange, disabled }: { resolution: InterruptResolution; onChange: () => void; disabled: boolean }) {
  const reason = resolution.kind === 'reject' ? resolution.options.reason : undefined;
  return (
    <div className="approval-staged" data-testid="approval-staged" data-kind={resolution.kind}>
      <span>
        {STAGED_LABEL[resolution.kind]}
        {reason ? `: “${reason}”` : ''}
        {disabled ? '' : ' — sent with the rest of the batch.'}
      </span>
      <button type="button" className="button button-quiet" data-testid="change-decision-button" disabled={disabled} onClick={onChange}>
        Change
      </button>
    </div>
  );
}

/** The time is formatted in the browser's zone after hydration (the server's would differ). */
function Expiry({ at, hydrated }: { at: string; hydrated: boolean }) {
  const date = new Date(at);
  return (
    <p className="approval-expiry" data-testid="approval-expiry">
      Expires <time dateTime={at}>{hydrated ? date.toLocaleString() : at}</time>
    </p>
  );
}
