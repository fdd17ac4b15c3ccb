'use client';
// The answer to a tool's requestInput() (an `input_required` interrupt): a form generated
// from its responseSchema. The person answers, declines to answer (with an optional reason:
// the tool is told, and the turn goes on), or withdraws the request (the turn ends).
import { ExternalLinkIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ProblemList } from './approval-decision-form';
import { asSchema } from './hooks/json-schema';
import type { PendingInterrupt } from './hooks/useAgent';
import { SchemaFields, useSchemaForm } from './schema-form';
import { Button } from './ui/button';
import { Field, Input } from './ui/field';

export function InputAnswerForm({ interrupt, disabled }: { interrupt: PendingInterrupt; disabled: boolean }) {
  const form = useSchemaForm(asSchema(interrupt.responseSchema) ?? {});
  const [problems, setProblems] = useState<string[]>([]);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const declineRef = useRef<HTMLButtonElement>(null);
  const backRef = useRef(false);

  useEffect(() => {
    if (!declining && backRef.current) {
      backRef.current = false;
      declineRef.current?.focus();
    }
  }, [declining]);

  function back() {
    backRef.current = true;
    setDeclining(false);
  }

  function answer() {
    const { value, valid, problems: formProblems } = form.read();
    setProblems(formProblems);
    if (valid) void interrupt.resolveInterrupt(true, { payload: value });
  }

  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        answer();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && declining) {
          event.preventDefault();
          back();
        }
      }}
    >
      {interrupt.url && !declining && (
        <Button asChild variant="secondary" size="sm">
          <a href={interrupt.url} target="_blank" rel="noopener noreferrer" data-testid="answer-link" title={interrupt.url}>
            <ExternalLinkIcon aria-hidden /> Open {new URL(interrupt.url).host}
          </a>
        </Button>
      )}
      {!declining && <SchemaFields form={form} testId="answer-field" disabled={disabled} />}
      {problems.length > 0 && <ProblemList problems={problems} />}
      {declining && (
        <Field label="Why not?" hint="Optional. The agent reads this and carries on without your answer.">
          <Input data-testid="decline-reason" value={reason} disabled={disabled} autoFocus onChange={(event) => setReason(event.target.value)} />
        </Field>
      )}
      <div className="flex flex-wrap items-center gap-2" data-card-actions>
        {declining ? (
          <>
            <Button variant="destructive" data-testid="confirm-decline-button" disabled={disabled} onClick={() => void interrupt.decline(reason)}>
              Decline to answer
            </Button>
            <Button variant="ghost" data-testid="back-button" disabled={disabled} onClick={back}>
              Back
            </Button>
          </>
        ) : (
          <>
            <Button type="submit" variant="primary" data-testid="answer-button" disabled={disabled}>
              {/* Nothing to fill in: the request is done elsewhere (a link) or only wants a yes. */}
              {form.empty ? (interrupt.url ? 'I’ve done it' : 'Confirm') : 'Send answer'}
            </Button>
            <Button ref={declineRef} data-testid="decline-button" disabled={disabled} onClick={() => setDeclining(true)}>
              Decline
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
      </div>
    </form>
  );
}
