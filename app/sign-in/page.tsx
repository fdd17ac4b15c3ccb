import type { Metadata } from 'next';
import { safeNext } from '@/components/safe-next';
import { SignInForm } from '@/components/sign-in-form';
import { isOpenDevMode } from '@/server/identity/owner';
import { webAccess } from '@/server/identity/web-access';

export const metadata: Metadata = { title: 'Sign in' };

// Where a browser enters an API key (docs/security.md, "Modes"); proxy.ts sends browsers here
// when the server keeps its web app for key holders.
export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  return (
    <div className="sign-in">
      <h1>Sign in</h1>
      {isOpenDevMode() ? (
        <p className="muted">This server is in open dev mode: nobody needs a key.</p>
      ) : (
        <>
          <p className="muted">
            {webAccess() === 'key'
              ? 'This server keeps its app for key holders: enter an API key (one of STACKBONE_API_KEYS). This browser then acts as that key until you sign out.'
              : 'Anyone may chat here. Enter an API key to act as that key: its conversations, Studio, and the approvals kept for key holders.'}
          </p>
          {/* Only a path of this site ever reaches the page (components/safe-next.ts). */}
          <SignInForm next={safeNext(next)} />
        </>
      )}
    </div>
  );
}
