'use client';
// The API key, exchanged once for this browser's identity cookie (POST /api/auth/session); the
// key is not kept in the page (docs/security.md, "Modes").
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { safeNext } from './safe-next';

export function SignInForm({ next }: { next: string }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <form
      className="sign-in-form"
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
      <label className="schema-field">
        <span className="schema-label">API key</span>
        <input type="password" autoComplete="off" value={key} onChange={(event) => setKey(event.target.value)} data-testid="sign-in-key" />
      </label>
      {error && (
        <p className="chat-error" role="alert" data-testid="sign-in-error">
          {error}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={!key.trim() || pending}>
        Sign in
      </button>
    </form>
  );
}

/** Forgets this browser's identity and goes home (or to sign-in, where the server asks for a key). */
export function SignOutButton() {
  const router = useRouter();
  return (
    <button
      type="button"
      className="button button-quiet"
      data-testid="sign-out"
      onClick={async () => {
        await fetch('/api/auth/session', { method: 'DELETE', headers: { 'content-type': 'application/json' } });
        // The server renders the header and lists for whoever the browser is now.
        router.replace('/');
        router.refresh();
      }}
    >
      Sign out
    </button>
  );
}
