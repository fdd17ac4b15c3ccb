'use client';
// Password reset (docs/users-and-roles.md, "Password reset"): without a token, ask for the mail
// that carries one; with the token from that mail's link, choose the new password. The answer to
// an address is the same whether it has an account or not.
import { useState } from 'react';
import { authClient } from './auth-client';
import { Button } from './ui/button';
import { Field, Input } from './ui/field';
import { useHydrated } from './use-hydrated';

export function PasswordResetForm({ token }: { token?: string }) {
  const hydrated = useHydrated();
  const [value, setValue] = useState('');
  const [state, setState] = useState<{ pending?: boolean; error?: string; done?: boolean }>({});
  if (state.done)
    return (
      <p className="text-sm text-pretty" role="status" data-testid="reset-done">
        {token
          ? 'Your password is changed. Sign in with it.'
          : 'If an account has that address, a link to choose a new password is on its way. It works once, for an hour.'}
      </p>
    );
  return (
    <form
      className="grid gap-4"
      data-testid="reset-form"
      data-hydrated={hydrated ? '' : undefined}
      onSubmit={async (event) => {
        event.preventDefault();
        setState({ pending: true });
        const result = token
          ? await authClient.resetPassword({ newPassword: value, token })
          : await authClient.requestPasswordReset({ email: value.trim(), redirectTo: '/reset-password' });
        setState(result.error ? { error: result.error.message ?? `The reset failed (HTTP ${result.error.status}).` } : { done: true });
      }}
    >
      <Field label={token ? 'New password' : 'Email'}>
        <Input
          type={token ? 'password' : 'email'}
          autoComplete={token ? 'new-password' : 'email'}
          minLength={token ? 8 : undefined}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          data-testid="reset-value"
        />
      </Field>
      {state.error && (
        <p className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert" data-testid="reset-error">
          {state.error}
        </p>
      )}
      <Button type="submit" variant="primary" className="w-full sm:w-auto sm:justify-self-start" disabled={!value || state.pending}>
        {token ? 'Change password' : 'Send the link'}
      </Button>
    </form>
  );
}
