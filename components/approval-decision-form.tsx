'use client';
// The controls of a tool approval: Approve (with the approval data, e.g. the refund's note),
// Edit (a form from the editedArgs schema, then approve the edited call), Reject (with an
// optional reason for the model, and the rejection's data when the policy asks for some),
// Cancel (end the turn without running the tool).
import { useState } from 'react';
import { responsePart } from './hooks/agent-store';
import type { PendingInterrupt } from './hooks/useAgent';
import { SchemaFields, useSchemaForm, type SchemaForm } from './schema-form';

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

  /** Reads the forms; the store validates against the schemas and shows what is wrong. */
  function approve(withEdits: boolean) {
    const edited = withEdits ? editForm.read() : null;
    const payload = payloadSchema ? payloadForm.read() : null;
    const formProblems = [...(edited?.problems ?? []), ...(payload?.problems ?? [])];
    setProblems(formProblems);
    if (formProblems.length > 0) return;
    void interrupt.resolveInterrupt(true, {
      ...(edited ? { editedArgs: edited.value as Record<string, unknown> } : {}),
      ...(payload ? { payload: payload.value } : {}),
    });
  }

  function reject() {
    const data = rejectSchema ? rejectForm.read() : null;
    setProblems(data?.problems ?? []);
    if (data && data.problems.length > 0) return;
    // Empty details are no details: the model is told only what the person filled in.
    const filled = data && Object.keys((data.value ?? {}) as object).length > 0;
    void interrupt.resolveInterrupt(false, { reason: reason.trim() || undefined, ...(filled ? { payload: data.value } : {}) });
  }

  return (
    <div className="approval-form" data-mode={mode}>
      {mode === 'edit' && <FormSection title="Arguments" form={editForm} testId="edit-field" disabled={disabled} />}
      {mode !== 'reject' && payloadSchema && <FormSection title="Details" form={payloadForm} testId="payload-field" disabled={disabled} />}
      {mode === 'reject' && rejectSchema && <FormSection title="Details" form={rejectForm} testId="reject-payload-field" disabled={disabled} />}
      {mode === 'reject' && (
        <label className="schema-field">
          <span className="schema-label">
            Reason <span className="schema-optional">(optional, the agent is told)</span>
          </span>
          <input data-testid="reject-reason" value={reason} disabled={disabled} onChange={(event) => setReason(event.target.value)} />
        </label>
      )}
      {problems.length > 0 && <ProblemList problems={problems} />}
      <div className="approval-actions">
        {mode === 'decide' && (
          <>
            <button type="button" className="button button-primary" data-testid="approve-button" disabled={disabled} onClick={() => approve(false)}>
              Approve
            </button>
            {canEdit && (
              <button type="button" className="button" data-testid="edit-button" disabled={disabled} onClick={() => setMode('edit')}>
                Edit
              </button>
            )}
            <button type="button" className="button" data-testid="reject-button" disabled={disabled} onClick={() => setMode('reject')}>
              Reject
            </button>
          </>
        )}
        {mode === 'edit' && (
          <button type="button" className="button button-primary" data-testid="approve-edited-button" disabled={disabled} onClick={() => approve(true)}>
            Approve with edits
          </button>
        )}
        {mode === 'reject' && (
          <button type="button" className="button button-danger" data-testid="confirm-reject-button" disabled={disabled} onClick={reject}>
            Reject
          </button>
        )}
        {mode !== 'decide' && (
          <button type="button" className="button" data-testid="back-button" disabled={disabled} onClick={() => setMode('decide')}>
            Back
          </button>
        )}
        <button type="button" className="button button-quiet" data-testid="cancel-interrupt-button" disabled={disabled} onClick={() => void interrupt.cancel()}>
          Cancel turn
        </button>
      </div>
    </div>
  );
}

function FormSection({ title, form, testId, disabled }: { title: string; form: SchemaForm; testId: string; disabled: boolean }) {
  return (
    <fieldset className="approval-fieldset">
      <legend className="tool-call-label">{title}</legend>
      <SchemaFields form={form} testId={testId} disabled={disabled} />
    </fieldset>
  );
}

export function ProblemList({ problems }: { problems: readonly string[] }) {
  return (
    <ul className="approval-problems" role="alert" data-testid="approval-problems">
      {problems.map((problem) => (
        <li key={problem}>{problem}</li>
      ))}
    </ul>
  );
}
