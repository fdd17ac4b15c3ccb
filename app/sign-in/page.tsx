import { LogInIcon } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { AccountsOff, AuthCard } from '@/components/auth-card';
import { AccountForm } from '@/components/account-form';
import { safeNext } from '@/components/safe-next';
import { SignInLinkForm } from '@/components/sign-in-link-form';
import { accountMailConfigured } from '@/server/auth/account-mail';
import { accountsAvailable, configuredSocialProviders } from '@/server/auth/better-auth';
import { isOpenDevMode } from '@/server/identity/owner';

export const metadata: Metadata = { title: 'Sign in' };

// Where people sign in (docs/users-and-roles.md): email and password, or a provider the server
// has keys for. proxy.ts sends browsers here when the server keeps its app for its team. Service
// keys (STACKBONE_API_KEYS) are for scripts and API clients, never entered here.
export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  const target = safeNext(next);
  const openDev = isOpenDevMode();
  const accounts = accountsAvailable();
  const mail = accounts && accountMailConfigured();
  return (
    <AuthCard icon={LogInIcon} title="Sign in">
      {openDev && (
        <p className="mb-4 text-sm text-muted-foreground">
          This server runs in dev mode on this computer: nobody needs to sign in, but you may, to try accounts and roles.
        </p>
      )}
      {!accounts && <AccountsOff />}
      {/* Only a path of this site ever reaches the page (components/safe-next.ts). */}
      {accounts && <AccountForm mode="sign-in" next={target} providers={configuredSocialProviders()} />}
      {accounts && (
        <p className="mt-4 text-sm text-muted-foreground">
          {mail && (
            <>
              <Link href="/reset-password" className="text-primary underline-offset-4 hover:underline" data-testid="forgot-password">
                Forgot your password?
              </Link>{' '}
              ·{' '}
            </>
          )}
          No account yet?{' '}
          <Link href={`/sign-up?next=${encodeURIComponent(target)}`} className="text-primary underline-offset-4 hover:underline" data-testid="sign-up-link">
            Create one
          </Link>
        </p>
      )}
      {mail && (
        <details className="mt-6 border-t pt-4">
          <summary className="cursor-pointer text-sm font-medium">Sign in with a link by email</summary>
          <div className="mt-3">
            <SignInLinkForm next={target} />
          </div>
        </details>
      )}
    </AuthCard>
  );
}
