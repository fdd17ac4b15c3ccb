'use client';
// The controls of a tool approval, each saying what it does: Approve (runs the call now, with
// the approval data such as a note for the record), Edit (change the arguments, then approve the
// edited call), Reject (the agent is told no, with your reason), Withdraw request (the call
// never runs and the turn ends). Reject and Edit open in the card; Escape or Back returns to
// the choice with focus on the button that opened them (docs/hitl.md, "What the approval card shows").
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { grantScopes, responsePart, timeGrantFits, type ResolveOptions } from './hooks/agent-store';
import type { PendingInterrupt } from './hooks/useAgent';
import { SchemaFields, useSchemaForm, type SchemaForm } from './schema-form';
import { Button } from './ui/button';
import { Field, Textarea } from './ui/field';

type Mode = 'decide' | 'edit' | 'reject';

export function ApprovalDecisionForm({ interrupt, disabled }: { interrupt: PendingInterrupt; disabled: boolean }) {
  const [mode, setMode] = useState<Mode>('decide');
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const editSchema = responsePart(interrupt, 'editedArgs');
  const payloadSchema = responsePart(interrupt, 'payload', true);
  const rejectSchema = responsePart(interrupt, 'payload', false);
  const editForm = useSchemaForm(editSchema ?? {}, interrupt.args);
  const payloadForm = useSchemaForm(payloadSchema ?? {});
  const rejectForm = useSchemaForm(rejectSchema ?? {});
  const canEdit = Boolean(editSchema) && interrupt.allowedDecisions.includes('edit');
  // "Approve and allow…" where the tool allows grants (docs/approvals.md, "Scoped grants").
  const scopes = grantScopes(interrupt);
  // The card's one 'time' grant is an hour: offered where the tool lets a grant last that long.
  const offersHour = scopes.includes('time') && timeGrantFits(interrupt, 3_600_000);
  const editRef = useRef<HTMLButtonElement>(null);
  const rejectRef = useRef<HTMLButtonElement>(null);
  const leftRef = useRef<Mode | null>(null);
  const actionsRef = useRef<HTMLDivElement>(null);

  // Edit or Reject opened: its submit button comes into view, above the composer and the banners
  // under the transcript (it opened below the fold, or under them).
  useEffect(() => {
    if (mode !== 'decide') actionsRef.current?.scrollIntoView({ block: 'nearest' });
  }, [mode]);

  // Back from Edit or Reject: focus returns to the button that opened it, never to the page's top.
  useEffect(() => {
    if (mode !== 'decide' || !leftRef.current) return;
    (leftRef.current === 'edit' ? editRef : rejectRef).current?.focus();
    leftRef.current = null;
  }, [mode]);

  function back() {
    leftRef.current = mode;
    setProblems([]);
    setMode('decide');
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape' && mode !== 'decide') {
      event.preventDefault();
      event.stopPropagation();
      back();
    }
  }

  /** Reads the forms; the store validates against the schemas and shows what is wrong. */
  function approve(withEdits: boolean, grant?: ResolveOptions['grant']) {
    const edited = withEdits ? editForm.read() : null;
    const payload = payloadSchema ? payloadForm.read() : null;
    setProblems([...(edited?.problems ?? []), ...(payload?.problems ?? [])]);
    if (edited?.valid === false || payload?.valid === false) return;
    void interrupt.resolveInterrupt(true, {
      ...(edited ? { editedArgs: edited.value as Record<string, unknown> } : {}),
      ...(payload ? { payload: payload.value } : {}),
      ...(grant ? { grant } : {}),
    });
  }

  function reject() {
    const data = rejectSchema ? rejectForm.read() : null;
    setProblems(data?.problems ?? []);
    if (data?.valid === false) return;
    // Empty details are no details: the model is told only what the person filled in.
    const filled = data && Object.keys((data.value ?? {}) as object).length > 0;
    void interrupt.resolveInterrupt(false, { reason: reason.trim() || undefined, ...(filled ? { payload: data.value } : {}) });
  }

  return (
    <div className="space-y-3" data-mode={mode} onKeyDown={onKeyDown}>
      {mode === 'edit' && <FormSection title="Change the details, then approve" form={editForm} testId="edit-field" disabled={disabled} autoFocus />}
      {mode !== 'reject' && payloadSchema && <FormSection title="With your approval" form={payloadForm} testId="payload-field" disabled={disabled} />}
      {mode === 'reject' && (
        <Field label="Why not?" hint="Optional. The agent reads this and can answer you or try something else.">
          <Textarea data-testid="reject-reason" rows={2} value={reason} disabled={disabled} autoFocus onChange={(event) => setReason(event.target.value)} />
        </Field>
      )}
      {mode === 'reject' && rejectSchema && <FormSection title="Details for the agent" form={rejectForm} testId="reject-payload-field" disabled={disabled} />}
      {problems.length > 0 && <ProblemList problems={problems} />}
      <div ref={actionsRef} className="flex flex-wrap items-center gap-2" data-card-actions>
        {mode === 'decide' && (
          <>
            <Button variant="primary" data-testid="approve-button" disabled={disabled} onClick={() => approve(false)}>
              Approve
            </Button>
            {scopes.includes('session') && (
              <Button data-testid="approve-session-button" disabled={disabled} onClick={() => approve(false, { scope: 'session' })}>
                Approve and allow for this chat
              </Button>
            )}
            {offersHour && (
              <Button data-testid="approve-hour-button" disabled={disabled} onClick={() => approve(false, { scope: 'time', for: '1h' })}>
                Approve and allow for 1 hour
              </Button>
            )}
            {canEdit && (
              <Button ref={editRef} data-testid="edit-button" disabled={disabled} onClick={() => setMode('edit')}>
                Edit
              </Button>
            )}
            <Button ref={rejectRef} data-testid="reject-button" disabled={disabled} onClick={() => setMode('reject')}>
              Reject
            </Button>
            <Button
              variant="ghost"
              className="text-muted-foreground"
              data-testid="cancel-interrupt-button"
              disabled={disabled}
              onClick={() => void interrupt.cancel()}
            >
              Withdraw request
            </Button>
          </>
        )}
        {mode === 'edit' && (
          <Button variant="primary" data-testid="approve-edited-button" disabled={disabled} onClick={() => approve(true)}>
            Approve with edits
          </Button>
        )}
        {mode === 'reject' && (
          <Button variant="destructive" data-testid="confirm-reject-button" disabled={disabled} onClick={reject}>
            Reject
          </Button>
        )}
        {mode !== 'decide' && (
          <Button variant="ghost" data-testid="back-button" disabled={disabled} onClick={back}>
            Back
          </Button>
        )}
      </div>
      {mode === 'decide' && (
        <p className="text-xs text-muted-foreground" data-testid="approval-consequences">
          Approve runs it now{scopes.length > 0 ? '; Approve and allow also runs its later calls in this chat without asking' : ''}
          {canEdit ? '; Edit lets you change it first' : ''}. Reject tells the agent no, with your reason. Withdraw request ends this turn without running it.
        </p>
      )}
    </div>
  );
}

function FormSection({
  title,
  form,
  testId,
  disabled,
  autoFocus,
}: {
  title: string;
  form: SchemaForm;
  testId: string;
  disabled: boolean;
  autoFocus?: boolean;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="mb-2 text-xs font-medium text-muted-foreground">{title}</legend>
      <SchemaFields form={form} testId={testId} disabled={disabled} autoFocus={autoFocus} />
    </fieldset>
  );
}

export function ProblemList({ problems }: { problems: readonly string[] }) {
  return (
    <ul
      className="list-inside list-disc rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive"
      role="alert"
      data-testid="approval-problems"
    >
      {problems.map((problem) => (
        <li key={problem}>{problem}</li>
      ))}
    </ul>
  );
}
