'use client';
// A sign-in link by mail (docs/users-and-roles.md, "Sign-in links"), where the server sends mail:
// no password to remember. Better Auth's magic-link endpoint mails it; the answer is the same
// whether the address has an account or not.
import { useState } from 'react';
import { Button } from './ui/button';
import { Field, Input } from './ui/field';
import { useHydrated } from './use-hydrated';

export function SignInLinkForm({ next }: { next: string }) {
  const hydrated = useHydrated();
  const [email, setEmail] = useState('');
  const [state, setState] = useState<{ pending?: boolean; error?: string; sent?: boolean }>({});
  if (state.sent)
    return (
      <p className="text-sm text-pretty" role="status" data-testid="sign-in-link-sent">
        Check your mail: the link signs you in once, for 15 minutes.
      </p>
    );
  return (
    <form
      className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"
      data-testid="sign-in-link-form"
      data-hydrated={hydrated ? '' : undefined}
      onSubmit={async (event) => {
        event.preventDefault();
        setState({ pending: true });
        const response = await fetch('/api/auth/sign-in/magic-link', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: email.trim(), callbackURL: next }),
        });
        const answer = (await response.json().catch(() => ({}))) as { message?: string };
        setState(response.ok ? { sent: true } : { error: answer.message ?? `HTTP ${response.status}` });
      }}
    >
      <Field label="Email">
        <Input type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} data-testid="sign-in-link-email" />
      </Field>
      <Button type="submit" disabled={!email.trim() || state.pending}>
        Email me a link
      </Button>
      {state.error && (
        <p className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive sm:col-span-2" role="alert">
          {state.error}
        </p>
      )}
    </form>
  );
}
