'use client';
// The API key, exchanged once for this browser's identity cookie (POST /api/auth/session); the
// key is not kept in the page (docs/security.md, "Modes").
import { LogOutIcon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { safeNext } from './safe-next';
import { Button } from './ui/button';
import { Field, Input } from './ui/field';

export function SignInForm({ next }: { next: string }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <form
      className="grid gap-4"
      data-testid="sign-in-form"
      onSubmit={async (event) => {
        event.preventDefault();
        setPending(true);
        setError(null);
        const response = await fetch('/api/auth/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ key: key.trim() }),
        });
        if (response.ok) {
          // A full load: the layout and every page read the new identity on the server.
          // Checked again here, against the origin the browser is on.
          window.location.assign(safeNext(next, window.location.origin));
          return;
        }
        const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
        setError(body.error?.message ?? `Sign-in failed (HTTP ${response.status}).`);
        setPending(false);
      }}
    >
      <Field label="API key">
        <Input
          type="password"
          autoComplete="off"
          value={key}
          onChange={(event) => setKey(event.target.value)}
          aria-invalid={error ? true : undefined}
          className="aria-invalid:border-destructive"
          data-testid="sign-in-key"
        />
      </Field>
      {error && (
        <p className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert" data-testid="sign-in-error">
          {error}
        </p>
      )}
      <Button type="submit" variant="primary" className="w-full sm:w-auto sm:justify-self-start" disabled={!key.trim() || pending}>
        Sign in
      </Button>
    </form>
  );
}

/** Forgets the key this browser acts as: the identity cookie a key was exchanged for. */
const forgetKey = () => fetch('/api/auth/session', { method: 'DELETE', headers: { 'content-type': 'application/json' } });

/**
 * Signs out — of a key by default, or as `signOut` says (an account: components/account-menu.tsx)
 * — and goes home (or to sign-in, where the server asks for one).
 */
export function SignOutButton({ signOut = forgetKey, testId = 'sign-out' }: { signOut?: () => Promise<unknown>; testId?: string }) {
  const router = useRouter();
  return (
    <Button
      variant="ghost"
      size="sm"
      className="max-sm:w-8 max-sm:px-0"
      data-testid={testId}
      onClick={async () => {
        await signOut();
        // The server renders the header and lists for whoever the browser is now.
        router.replace('/');
        router.refresh();
      }}
    >
      <LogOutIcon aria-hidden />
      <span className="max-sm:sr-only">Sign out</span>
    </Button>
  );
}
