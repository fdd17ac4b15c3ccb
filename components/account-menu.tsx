'use client';
// Who is signed in, in the header (docs/users-and-roles.md): a member's address with Sign out;
// for a guest, Sign up (their conversations come along).
import { LogOutIcon, UserRoundIcon } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { authClient } from './auth-client';
import { Button } from './ui/button';

export function AccountMenu({ account }: { account: { email: string; guest: boolean } }) {
  // The mode indicator beside it says "Guest" already.
  if (account.guest)
    return (
      <Button asChild variant="ghost" size="sm">
        <Link href="/sign-up" data-testid="sign-up-link">
          Sign up
        </Link>
      </Button>
    );
  return (
    <>
      <span className="flex items-center gap-1.5 text-sm text-muted-foreground" data-testid="account-signed-in">
        <UserRoundIcon className="size-4" aria-hidden />
        <span className="max-w-48 truncate max-sm:sr-only">{account.email}</span>
      </span>
      <SignOutButton />
    </>
  );
}

/** Signs out of the account and goes home (or to sign-in, where the server asks for one). */
function SignOutButton() {
  const router = useRouter();
  return (
    <Button
      variant="ghost"
      size="sm"
      className="max-sm:w-8 max-sm:px-0"
      data-testid="account-sign-out"
      onClick={async () => {
        await authClient.signOut();
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
