'use client';
// The answer to a tool's requestInput() (an `input_required` interrupt): a form generated
// from its responseSchema. Over AG-UI an answer can be given or the turn cancelled; there
// is no "decline to answer" (the resume payload is the answer itself).
import { useState } from 'react';
import { ProblemList } from './approval-decision-form';
import { asSchema } from './hooks/json-schema';
import type { PendingInterrupt } from './hooks/useAgent';
import { SchemaFields, useSchemaForm } from './schema-form';

export function InputAnswerForm({ interrupt, disabled }: { interrupt: PendingInterrupt; disabled: boolean }) {
  const form = useSchemaForm(asSchema(interrupt.responseSchema) ?? {});
  const [problems, setProblems] = useState<string[]>([]);

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
      <div className="approval-actions">
        <button type="submit" className="button button-primary" data-testid="answer-button" disabled={disabled}>
          Send answer
        </button>
        <button type="button" className="button button-quiet" data-testid="cancel-interrupt-button" disabled={disabled} onClick={() => void interrupt.cancel()}>
          Cancel turn
        </button>
      </div>
    </form>
  );
}
