'use client';
// One open interrupt, written for the person who decides it, developer or not: a plain
// sentence of what the agent wants to do (the tool's describe() line), the arguments as
// labelled, formatted fields, the raw call behind "Details", when the request expires, and the
// decision controls. When it opens it comes into view and takes focus, so it is never below
// the fold (docs/hitl.md, "What the approval card shows"). In a batch the card keeps a staged
// decision until the last one is made, and the decision can be changed until then.
import { ChevronRightIcon, Loader2Icon, MessageCircleQuestionIcon, ShieldQuestionIcon } from 'lucide-react';
import { Collapsible } from 'radix-ui';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApprovalContext } from './approval-context';
import { ApprovalDecisionForm, ProblemList } from './approval-decision-form';
import { labelledFields } from './format-value';
import { asksForInput, isDecided, type InterruptResolution } from './hooks/agent-store';
import type { JsonSchema } from './hooks/json-schema';
import type { PendingInterrupt } from './hooks/useAgent';
import { InputAnswerForm } from './input-answer-form';
import { Button } from './ui/button';
import { cn } from './ui/cn';
import { useHydrated } from './use-hydrated';
import { useViewer } from './viewer';

export interface ApprovalCardProps {
  interrupt: PendingInterrupt;
  /** A run is in progress (e.g. this batch being submitted): nothing can be decided. */
  busy: boolean;
  /** Position in a batch of more than one. */
  batch?: { index: number; size: number };
  /** The tool's input schema: labels and formats for its arguments. */
  inputSchema?: JsonSchema;
  /** This is the card to decide next: it scrolls into view and takes focus. */
  current?: boolean;
}

export function ApprovalCard({ interrupt, busy, batch, inputSchema, current = false }: ApprovalCardProps) {
  const hydrated = useHydrated();
  const { resolution } = interrupt;
  // The decision made here, once it is ready to send.
  const staged = isDecided(resolution) ? resolution : null;
  // This person's vote on a call several approvers decide: nothing is asked of them any more.
  const myVote = interrupt.quorum?.votes.find((vote) => vote.mine);
  const input = asksForInput(interrupt);
  const disabled = !hydrated || busy;
  const viewer = useViewer();
  const titleId = useId();
  const cardRef = useRef<HTMLElement>(null);
  // Approved with edits: the card shows the call as it will run, each changed value beside what was asked.
  const edited = staged?.kind === 'edit' ? staged.options.editedArgs : undefined;
  const asked = input ? [] : labelledFields(interrupt.args, inputSchema);
  const fields = edited
    ? labelledFields(edited, inputSchema).map((field) => {
        const before = asked.find((candidate) => candidate.key === field.key)?.text;
        return { ...field, was: before !== field.text ? (before ?? '—') : undefined };
      })
    : asked.map((field) => ({ ...field, was: undefined }));

  useEffect(() => {
    if (!current || !cardRef.current) return;
    bringIntoView(cardRef.current);
  }, [current]);

  return (
    <section
      ref={cardRef}
      tabIndex={-1}
      className={cn(
        'animate-arrive scroll-mt-3 space-y-3 rounded-xl border border-attention-border bg-attention p-4 text-card-foreground shadow-sm focus-visible:outline-2 focus-visible:outline-ring',
        (staged || myVote) && 'border-border bg-card',
      )}
      data-testid="approval-card"
      data-interrupt-id={interrupt.id}
      data-tool-call-id={interrupt.toolCallId}
      data-tool-name={interrupt.toolName}
      data-reason={interrupt.reason}
      data-state={staged ? 'staged' : myVote ? 'voted' : resolution ? 'invalid' : 'open'}
      aria-labelledby={titleId}
    >
      <header className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs font-medium text-warning">
        {input ? <MessageCircleQuestionIcon className="size-4" aria-hidden /> : <ShieldQuestionIcon className="size-4" aria-hidden />}
        <span data-testid="approval-card-status">
          {myVote ? (myVote.status === 'approved' ? 'You approved' : 'You rejected') : input ? 'The agent asks you' : 'Needs your approval'}
        </span>
        {interrupt.agent && <span className="font-normal text-muted-foreground">from the {interrupt.agent} helper</span>}
        {batch && (
          <span className="rounded-full bg-background/60 px-2 py-0.5 text-muted-foreground" data-testid="approval-batch-position">
            {batch.index + 1} of {batch.size}
          </span>
        )}
        {interrupt.expiresAt && <Expiry at={interrupt.expiresAt} hydrated={hydrated} />}
      </header>
      <h3 id={titleId} className="text-base font-semibold text-foreground" data-testid="approval-message" data-edited={edited ? true : undefined}>
        {edited && <span className="mr-1.5 text-xs font-medium text-muted-foreground">As asked:</span>}
        <span className={cn(edited && 'text-muted-foreground line-through')}>{interrupt.message ?? interrupt.description}</span>
      </h3>
      {fields.length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="approval-fields">
          {fields.map((field) => (
            <div key={field.key} className="contents">
              <dt className="text-muted-foreground">{field.label}</dt>
              <dd className="font-medium break-words" data-testid={`approval-field-${field.key}`}>
                {field.text}
                {field.was !== undefined && (
                  <span className="ml-1.5 text-xs font-normal text-muted-foreground" data-testid="approval-field-was">
                    (was {field.was})
                  </span>
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {interrupt.context && <ApprovalContext context={interrupt.context} testId="approval-context" />}
      {!input && interrupt.args !== undefined && <RawCall args={interrupt.args} toolName={interrupt.toolName} />}
      {interrupt.quorum && <Votes quorum={interrupt.quorum} />}
      {staged ? (
        <StagedDecision resolution={staged} onChange={interrupt.clearResolution} busy={busy} disabled={disabled} />
      ) : myVote && interrupt.quorum ? (
        <WaitingForApprovers interrupt={interrupt} quorum={interrupt.quorum} mine={myVote.status} disabled={disabled} />
      ) : (
        <>
          {resolution && <ProblemList problems={resolution.problems} />}
          {input ? (
            <InputAnswerForm interrupt={interrupt} disabled={disabled} />
          ) : interrupt.requesterExcluded ? (
            <KeyHolderDecides interrupt={interrupt} disabled={disabled} requester />
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

/**
 * Scrolls the card into view and focuses it (without a second scroll): its top at the top of
 * the conversation, or, for a card taller than the view, its buttons at the bottom.
 */
function bringIntoView(card: HTMLElement) {
  card.scrollIntoView({ block: 'start' });
  card.querySelector('[data-card-actions]')?.scrollIntoView({ block: 'nearest' });
  card.focus({ preventScroll: true });
}

/** The call as the program sees it, for whoever wants it: the tool's name and raw arguments. */
function RawCall({ args, toolName }: { args: unknown; toolName?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen}>
      <Collapsible.Trigger className="inline-flex items-center gap-1 rounded text-xs text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring">
        <ChevronRightIcon className={`size-3.5 transition-transform ${open ? 'rotate-90' : ''}`} aria-hidden />
        Details
      </Collapsible.Trigger>
      <Collapsible.Content forceMount className="mt-2 data-[state=closed]:hidden">
        {toolName && <p className="mb-1 font-mono text-xs text-muted-foreground">{toolName}</p>}
        <pre className="max-h-60 overflow-auto rounded-md bg-background/70 px-3 py-2 font-mono text-xs" data-testid="approval-args">
          {JSON.stringify(args, null, 2)}
        </pre>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

/**
 * After this person's vote on a call several approvers decide: how many more are needed and who
 * they are, with no second vote to cast (the server counts one per person); withdrawing stays.
 */
function WaitingForApprovers({
  interrupt,
  quorum,
  mine,
  disabled,
}: {
  interrupt: PendingInterrupt;
  quorum: NonNullable<PendingInterrupt['quorum']>;
  mine: 'approved' | 'denied';
  disabled: boolean;
}) {
  // One rejection decides unless the tool counts rejections to the quorum too; then the same count as approvals.
  const alike = quorum.votes.filter((vote) => vote.status === mine).length;
  const more = Math.max(1, quorum.required - alike);
  const who = interrupt.approvers ? `: ${interrupt.approvers}` : '';
  return (
    <WaitsForOthers testId="approval-waiting-for-others" interrupt={interrupt} disabled={disabled}>
      <span data-testid="approval-waiting-line">
        Waiting for {more} more {more === 1 ? 'approver' : 'approvers'}
        {who}. The conversation goes on here as soon as they decide.
      </span>
    </WaitsForOthers>
  );
}

/** "1 of 2 approvals: alice": the votes so far on a call that needs several approvers (docs/approvals.md). */
function Votes({ quorum }: { quorum: NonNullable<PendingInterrupt['quorum']> }) {
  const cast = (status: 'approved' | 'denied') => quorum.votes.filter((vote) => vote.status === status);
  // Who voted reaches key holders only; a customer reads the count alone.
  const names = (status: 'approved' | 'denied') => cast(status).flatMap((vote) => (vote.name ? [vote.name] : []));
  const approved = cast('approved').length;
  const rejected = cast('denied').length;
  const who = (list: string[]) => (list.length ? `: ${list.join(', ')}` : '');
  return (
    <p className="text-sm text-muted-foreground" data-testid="interrupt-votes" data-approvals={approved} data-quorum={quorum.required}>
      {approved} of {quorum.required} approvals{who(names('approved'))}
      {rejected ? ` · ${rejected} rejected${who(names('denied'))}` : ''}
    </p>
  );
}

/**
 * A call only a key holder may approve, or one its requester may not (`requesterMayApprove: false`):
 * this viewer waits for their decision, and may withdraw the request.
 */
function KeyHolderDecides({ interrupt, disabled, requester = false }: { interrupt: PendingInterrupt; disabled: boolean; requester?: boolean }) {
  return (
    <WaitsForOthers testId="approval-key-holders" interrupt={interrupt} disabled={disabled}>
      {requester
        ? 'You asked for this, so someone else approves or rejects it, in Studio or with the CLI.'
        : 'Someone on the team approves or rejects this, in Studio or with the CLI.'}{' '}
      The conversation goes on here as soon as they do.
    </WaitsForOthers>
  );
}

/** Someone else decides now: what this viewer is told, and the one thing left to them, withdrawing the request. */
function WaitsForOthers({ testId, interrupt, disabled, children }: { testId: string; interrupt: PendingInterrupt; disabled: boolean; children: ReactNode }) {
  return (
    <div className="space-y-2" data-testid={testId}>
      <p className="text-sm">{children}</p>
      <div data-card-actions>
        <Button variant="ghost" size="sm" data-testid="cancel-interrupt-button" disabled={disabled} onClick={() => void interrupt.cancel()}>
          Withdraw request
        </Button>
      </div>
    </div>
  );
}

const STAGED_LABEL: Record<InterruptResolution['kind'], string> = {
  approve: 'Approved',
  edit: 'Approved with edits',
  reject: 'Rejected',
  cancel: 'Withdrawn',
};

function StagedDecision({ resolution, onChange, busy, disabled }: { resolution: InterruptResolution; onChange: () => void; busy: boolean; disabled: boolean }) {
  const reason = resolution.kind === 'reject' ? resolution.options.reason : undefined;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="approval-staged" data-kind={resolution.kind} data-card-actions>
      {busy && <Loader2Icon className="size-4 animate-spin text-muted-foreground" aria-hidden />}
      <span>
        <strong>{STAGED_LABEL[resolution.kind]}</strong>
        {reason ? `: “${reason}”` : ''}
        {busy ? ' — the agent is carrying on…' : ' — sent with the rest of the batch once every call is decided.'}
      </span>
      {!busy && (
        <Button variant="ghost" size="sm" data-testid="change-decision-button" disabled={disabled} onClick={onChange}>
          Change
        </Button>
      )}
    </div>
  );
}

/** The time is formatted in the browser's zone after hydration (the server's would differ). */
function Expiry({ at, hydrated }: { at: string; hydrated: boolean }) {
  const date = new Date(at);
  const sameDay = hydrated && date.toDateString() === new Date().toDateString();
  const text = hydrated
    ? sameDay
      ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
      : date.toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' })
    : at;
  return (
    <span className="ml-auto font-normal text-muted-foreground" data-testid="approval-expiry">
      Expires <time dateTime={at}>{text}</time>
    </span>
  );
}
