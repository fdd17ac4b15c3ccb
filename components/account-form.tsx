'use client';
// Email and password, to sign in or to sign up (docs/users-and-roles.md). A guest who signs up
// from this browser keeps their conversations: the server moves nothing, the account takes the
// guest's owner id. OAuth buttons appear for the providers the server has keys for.
import { useState } from 'react';
import { authClient } from './auth-client';
import { safeNext } from './safe-next';
import { Button } from './ui/button';
import { Field, Input } from './ui/field';
import { useHydrated } from './use-hydrated';

const PROVIDER_NAMES: Record<string, string> = { github: 'GitHub', google: 'Google', vercel: 'Vercel' };

export function AccountForm({ mode, next, providers = [] }: { mode: 'sign-in' | 'sign-up'; next: string; providers?: string[] }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const signUp = mode === 'sign-up';
  const ready = email.trim() && password && (!signUp || name.trim());
  return (
    <div className="grid gap-4">
      <form
        className="grid gap-4"
        data-testid="account-form"
        // What a test waits for: typing before React hydrates would be lost.
        data-hydrated={hydrated ? '' : undefined}
        onSubmit={async (event) => {
          event.preventDefault();
          setPending(true);
          setError(null);
          const result = signUp
            ? await authClient.signUp.email({ email: email.trim(), password, name: name.trim() })
            : await authClient.signIn.email({ email: email.trim(), password });
          if (!result.error) {
            // A full load: the layout and every page read the new session on the server.
            window.location.assign(safeNext(next, window.location.origin));
            return;
          }
          setError(result.error.message ?? `${signUp ? 'Sign-up' : 'Sign-in'} failed (HTTP ${result.error.status}).`);
          setPending(false);
        }}
      >
        {signUp && (
          <Field label="Name">
            <Input autoComplete="name" value={name} onChange={(event) => setName(event.target.value)} data-testid="account-name" />
          </Field>
        )}
        <Field label="Email">
          <Input type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} data-testid="account-email" />
        </Field>
        <Field label="Password">
          <Input
            type="password"
            autoComplete={signUp ? 'new-password' : 'current-password'}
            minLength={8}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={error ? true : undefined}
            className="aria-invalid:border-destructive"
            data-testid="account-password"
          />
        </Field>
        {error && (
          <p className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert" data-testid="account-error">
            {error}
          </p>
        )}
        <Button type="submit" variant="primary" className="w-full sm:w-auto sm:justify-self-start" disabled={!ready || pending}>
          {signUp ? 'Create account' : 'Sign in'}
        </Button>
      </form>
      {providers.length > 0 && (
        <div className="grid gap-2 border-t pt-4">
          {providers.map((provider) => (
            <Button
              key={provider}
              variant="secondary"
              onClick={() => authClient.signIn.social({ provider, callbackURL: safeNext(next, window.location.origin) })}
              data-testid={`oauth-${provider}`}
            >
              Continue with {PROVIDER_NAMES[provider] ?? provider}
            </Button>
          ))}
        </div>
      )}
    </div>
  );
}
