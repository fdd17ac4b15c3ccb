import { UserRoundPlusIcon } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { AccountsOff, AuthCard } from '@/components/auth-card';
import { AccountForm } from '@/components/account-form';
import { safeNext } from '@/components/safe-next';
import { accountsAvailable, configuredSocialProviders } from '@/server/auth/better-auth';
import { openToEveryone } from '@/server/auth/who-may-join';

export const metadata: Metadata = { title: 'Sign up' };

// An account with email and password (docs/users-and-roles.md): a guest who signs up here keeps
// the conversations this browser started.
export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  const target = safeNext(next);
  return (
    <AuthCard icon={UserRoundPlusIcon} title="Create an account">
      <p className="mb-4 text-sm text-pretty text-muted-foreground">
        {openToEveryone()
          ? 'Your conversations so far come with you.'
          : 'This server is for its team: your address must be one an operator named (STACKBONE_ADMIN_EMAILS or STACKBONE_ROLES).'}
      </p>
      {accountsAvailable() ? <AccountForm mode="sign-up" next={target} providers={configuredSocialProviders()} /> : <AccountsOff />}
      <p className="mt-4 text-sm text-muted-foreground">
        Have an account?{' '}
        <Link href={`/sign-in?next=${encodeURIComponent(target)}`} className="text-primary underline-offset-4 hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
