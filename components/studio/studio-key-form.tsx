// Keyed mode (STACKBONE_API_KEYS set): Studio shows and decides an API key's sessions, and the
// approvals kept for key holders, so it asks this browser to sign in with a key once
// (docs/studio.md, docs/security.md).
import { KeyRoundIcon } from 'lucide-react';
import { SignInForm } from '../sign-in-form';

export function StudioKeyForm() {
  return (
    <div className="max-w-md space-y-4 rounded-xl border bg-card p-5 text-card-foreground shadow-sm sm:p-6" data-testid="studio-key-form">
      <div className="flex items-start gap-3">
        <span className="grid size-9 shrink-0 place-items-center rounded-md bg-primary/10 text-primary" aria-hidden>
          <KeyRoundIcon className="size-4" />
        </span>
        <p className="text-sm text-pretty text-muted-foreground">
          Studio needs an API key on this server. Sign in with one to see and decide its conversations, and the approvals kept for key holders.
        </p>
      </div>
      <SignInForm next="/studio" />
    </div>
  );
}
