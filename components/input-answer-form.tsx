'use client';
// The answer to a tool's requestInput() (an `input_required` interrupt): a form generated
// from its responseSchema. The person answers, declines to answer (with an optional reason:
// the tool is told, and the turn goes on), or cancels the turn.
import { useState } from 'react';
import { ProblemList } from './approval-decision-form';
import { asSchema } from './hooks/json-schema';
import type { PendingInterrupt } from './hooks/useAgent';
import { SchemaFields, useSchemaForm } from './schema-form';

export function InputAnswerForm({ interrupt, disabled }: { interrupt: PendingInterrupt; disabled: boolean }) {
  const form = useSchemaForm(asSchema(interrupt.responseSchema) ?? {});
  const [problems, setProblems] = useState<string[]>([]);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');

  function answer() {
    const { value, problems: formProblems } = form.read();
    setProblems(formProblems);
    if (formProblems.length === 0) void interrupt.resolveInterrupt(true, { payload: value });
  }

  return (
    <form
      className="approval-form"
      onSubmit={(event) => {
        event.preventDefault();
        answer();
      }}
    >
      <SchemaFields form={form} testId="answer-field" disabled={disabled} />
      {problems.length > 0 && <ProblemList problems={problems} />}
      {declining && (
        <label className="schema-field">
          <span className="schema-label">
            Reason <span className="schema-optional">(optional, the agent is told)</span>
          </span>
          <input data-testid="decline-reason" value={reason} disabled={disabled} onChange={(event) => setReason(event.target.value)} />
        </label>
      )}
      <div className="approval-actions">
        {declining ? (
          <>
            <button
              type="button"
              className="button button-danger"
              data-testid="confirm-decline-button"
              disabled={disabled}
              onClick={() => void interrupt.decline(reason)}
            >
              Decline to answer
            </button>
            <button type="button" className="button button-quiet" disabled={disabled} onClick={() => setDeclining(false)}>
              Back
            </button>
          </>
        ) : (
          <>
            <button type="submit" className="button button-primary" data-testid="answer-button" disabled={disabled}>
              Send answer
            </button>
            <button type="button" className="button" data-testid="decline-button" disabled={disabled} onClick={() => setDeclining(true)}>
              Decline
            </button>
          </>
        )}
        <button type="button" className="button button-quiet" data-testid="cancel-interrupt-button" disabled={disabled} onClick={() => void interrupt.cancel()}>
          Cancel turn
        </button>
      </div>
    </form>
  );
}
