import { KeyRoundIcon } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { PageFrame } from '@/components/page-frame';
import { safeNext } from '@/components/safe-next';
import { SignInForm } from '@/components/sign-in-form';
import { Button } from '@/components/ui/button';
import { isOpenDevMode } from '@/server/identity/owner';
import { webAccess } from '@/server/identity/web-access';

export const metadata: Metadata = { title: 'Sign in' };

// Where a browser enters an API key (docs/security.md, "Modes"); proxy.ts sends browsers here
// when the server keeps its web app for key holders.
export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  return (
    <PageFrame className="max-w-md pt-10 sm:pt-20">
      <div className="rounded-xl border bg-card p-5 text-card-foreground shadow-sm sm:p-6">
        <div className="mb-4 flex items-center gap-3">
          <span className="grid size-9 place-items-center rounded-md bg-primary/10 text-primary" aria-hidden>
            <KeyRoundIcon className="size-4" />
          </span>
          <h1 className="text-xl font-semibold tracking-tight">Sign in</h1>
        </div>
        {isOpenDevMode() ? (
          <div className="space-y-4">
            <p className="text-sm text-muted-foreground">This server runs in dev mode on this computer: nobody needs a key.</p>
            <Button asChild variant="primary">
              <Link href="/">All agents</Link>
            </Button>
          </div>
        ) : (
          <div className="space-y-4">
            <p className="text-sm text-pretty text-muted-foreground">
              {webAccess() === 'key'
                ? 'This server keeps its app for key holders: enter an API key (one of STACKBONE_API_KEYS). This browser then acts as that key until you sign out.'
                : 'Anyone may chat here. Enter an API key to act as that key: its conversations, Studio, and the approvals kept for key holders.'}
            </p>
            {/* Only a path of this site ever reaches the page (components/safe-next.ts). */}
            <SignInForm next={safeNext(next)} />
          </div>
        )}
      </div>
    </PageFrame>
  );
}
