import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import { KeyedModeBadge, OpenDevModeBadge } from '@/components/status-badges';
import { isOpenDevMode } from '@/server/http/owner';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Stackbone', template: '%s · Stackbone' },
  description: 'Agents with a human in the loop.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The markers describe the running server, not the build: render at request time.
  await connection();
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
          <div className="app-header-badges">{isOpenDevMode() ? <OpenDevModeBadge /> : <KeyedModeBadge />}</div>
        </header>
        <main className="app-main">
          <Providers>{children}</Providers>
        </main>
      </body>
    </html>
  );
}
