import { LogInIcon } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { AccountForm } from '@/components/account-form';
import { PageFrame } from '@/components/page-frame';
import { safeNext } from '@/components/safe-next';
import { SignInForm } from '@/components/sign-in-form';
import { configuredSocialProviders } from '@/server/auth/better-auth';
import { isOpenDevMode } from '@/server/identity/owner';
import { webAccess } from '@/server/identity/web-access';

export const metadata: Metadata = { title: 'Sign in' };

// Where people sign in (docs/users-and-roles.md): email and password, or a provider the server
// has keys for. proxy.ts sends browsers here when the server keeps its app for its team. A
// service key (STACKBONE_API_KEYS) may still be entered below, for an operator without an account.
export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  const target = safeNext(next);
  const openDev = isOpenDevMode();
  return (
    <PageFrame className="max-w-md pt-10 sm:pt-20">
      <div className="rounded-xl border bg-card p-5 text-card-foreground shadow-sm sm:p-6">
        <div className="mb-4 flex items-center gap-3">
          <span className="grid size-9 place-items-center rounded-md bg-primary/10 text-primary" aria-hidden>
            <LogInIcon className="size-4" />
          </span>
          <h1 className="text-xl font-semibold tracking-tight">Sign in</h1>
        </div>
        {openDev && (
          <p className="mb-4 text-sm text-muted-foreground">
            This server runs in dev mode on this computer: nobody needs to sign in, but you may, to try accounts and roles.
          </p>
        )}
        {/* Only a path of this site ever reaches the page (components/safe-next.ts). */}
        <AccountForm mode="sign-in" next={target} providers={configuredSocialProviders()} />
        <p className="mt-4 text-sm text-muted-foreground">
          No account yet?{' '}
          <Link href={`/sign-up?next=${encodeURIComponent(target)}`} className="text-primary underline-offset-4 hover:underline" data-testid="sign-up-link">
            Create one
          </Link>
        </p>
        {!openDev && (
          <details className="mt-6 border-t pt-4">
            <summary className="cursor-pointer text-sm font-medium">Use a service key instead</summary>
            <p className="my-3 text-sm text-pretty text-muted-foreground">
              {webAccess() === 'key'
                ? 'A key from STACKBONE_API_KEYS: this browser then acts as that key until you sign out.'
                : 'Anyone may chat here. A key from STACKBONE_API_KEYS acts as that key: its conversations, Studio, and the approvals kept for key holders.'}
            </p>
            <SignInForm next={target} />
          </details>
        )}
      </div>
    </PageFrame>
  );
}
