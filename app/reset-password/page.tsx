import { KeyRoundIcon } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/auth-card';
import { PasswordResetForm } from '@/components/password-reset-form';
import { accountMailConfigured } from '@/server/auth/account-mail';

export const metadata: Metadata = { title: 'Reset your password' };

// Where a forgotten password is replaced (docs/users-and-roles.md, "Password reset"): the mailed
// link brings `?token=`; a link that expired or was used says so (`?error=INVALID_TOKEN`).
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string | string[]; error?: string | string[] }> }) {
  const { token, error } = await searchParams;
  return (
    <AuthCard icon={KeyRoundIcon} title="Reset your password">
      {!accountMailConfigured() ? (
        <p className="text-sm text-muted-foreground">This server sends no mail (STACKBONE_SMTP_URL is not set): ask an operator to reset your password.</p>
      ) : error ? (
        <p className="text-sm text-muted-foreground" role="alert">
          That link has expired or was used already.{' '}
          <Link href="/reset-password" className="text-primary underline-offset-4 hover:underline">
            Ask for a new one
          </Link>
          .
        </p>
      ) : (
        <PasswordResetForm token={typeof token === 'string' ? token : undefined} />
      )}
      <p className="mt-4 text-sm text-muted-foreground">
        <Link href="/sign-in" className="text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}
