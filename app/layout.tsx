import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import { SignOutButton } from '@/components/sign-in-form';
import { KeyedModeBadge, OpenDevModeBadge } from '@/components/status-badges';
import { isOpenDevMode } from '@/server/identity/owner';
import { pageCaller } from '@/server/identity/page-owner';
import { webAccess } from '@/server/identity/web-access';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Stackbone', template: '%s · Stackbone' },
  description: 'Agents with a human in the loop.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The markers describe the running server, not the build: render at request time.
  await connection();
  const caller = isOpenDevMode() ? null : await pageCaller();
  return (
    <html lang="en">
      <body>
        <header className="app-header">
          <Link href="/" className="app-brand">
            Stackbone
          </Link>
          <nav className="app-nav" aria-label="Main">
            <Link href="/">Agents</Link>
            <Link href="/studio" data-testid="nav-studio">
              Studio
            </Link>
          </nav>
          <div className="app-header-badges">
            {isOpenDevMode() ? <OpenDevModeBadge /> : <KeyedModeBadge webAccess={webAccess()} signedInWithKey={caller?.credential === 'key'} />}
            {caller?.credential === 'key' && <SignOutButton />}
            {!isOpenDevMode() && caller?.credential !== 'key' && (
              <Link href="/sign-in" className="button button-quiet" data-testid="sign-in-link">
                Sign in with a key
              </Link>
            )}
          </div>
        </header>
        <main className="app-main">
          <Providers viewer={{ keyHolder: isOpenDevMode() || caller?.credential === 'key' }}>{children}</Providers>
        </main>
      </body>
    </html>
  );
}
