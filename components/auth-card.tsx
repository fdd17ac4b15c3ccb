// The card the account pages share (sign in, sign up, reset a password): a narrow frame, an icon
// and a heading, then the page's own content.
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { PageFrame } from './page-frame';

export function AuthCard({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <PageFrame className="max-w-md pt-10 sm:pt-20">
      <div className="rounded-xl border bg-card p-5 text-card-foreground shadow-sm sm:p-6">
        <div className="mb-4 flex items-center gap-3">
          <span className="grid size-9 place-items-center rounded-md bg-primary/10 text-primary" aria-hidden>
            <Icon className="size-4" />
          </span>
          <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        </div>
        {children}
      </div>
    </PageFrame>
  );
}

/** Said where a production server has no secret to sign accounts' cookies with (server/auth/better-auth.ts, accountsAvailable). */
export function AccountsOff() {
  return (
    <p className="mb-4 text-sm text-pretty text-muted-foreground" data-testid="accounts-off">
      Accounts are off on this server: set BETTER_AUTH_SECRET (or STACKBONE_SECRET) to let people sign up and sign in.
    </p>
  );
}
