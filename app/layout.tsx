import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { AccountMenu } from '@/components/account-menu';
import { accountsAvailable } from '@/server/auth/better-auth';
import { ModeIndicator } from '@/components/mode-indicator';
import { Providers } from '@/components/providers';
import { Button } from '@/components/ui/button';
import { isOpenDevMode } from '@/server/identity/owner';
import { pageCaller } from '@/server/identity/page-owner';
import { webAccess } from '@/server/identity/web-access';
import { agentCards } from '@/server/web/agents';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Stackbone', template: '%s · Stackbone' },
  description: 'Agents with a human in the loop.',
};

export const viewport: Viewport = {
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#17181c' },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The indicator describes the running server, not the build: render at request time.
  await connection();
  const openDev = isOpenDevMode();
  // Open dev mode is the local owner unless a person signed in (docs/users-and-roles.md).
  const caller = await pageCaller();
  // A member, or a guest who may sign up.
  const account =
    caller?.credential === 'user' ? { email: caller.email ?? '', guest: false } : caller?.credential === 'guest' ? { email: '', guest: true } : undefined;
  const scriptedAgents = (await agentCards()).filter((agent) => agent.scripted).map((agent) => agent.name);
  return (
    <html lang="en">
      <body className="flex h-dvh flex-col">
        <header className="flex h-12 shrink-0 items-center gap-1 border-b px-3 sm:gap-4 sm:px-4">
          <Link href="/" className="mr-1 flex items-center gap-2 font-semibold tracking-tight">
            <span className="grid size-6 place-items-center rounded-md bg-primary text-xs font-bold text-primary-foreground" aria-hidden>
              S
            </span>
            <span className="max-sm:sr-only">Stackbone</span>
          </Link>
          <nav className="flex items-center gap-1 text-sm" aria-label="Main">
            <Link href="/" className="rounded-md px-2 py-1 text-muted-foreground hover:bg-accent hover:text-foreground">
              Agents
            </Link>
            <Link href="/studio" className="rounded-md px-2 py-1 text-muted-foreground hover:bg-accent hover:text-foreground" data-testid="nav-studio">
              Studio
            </Link>
            {(openDev || account?.guest === false) && (
              <Link
                href="/studio/team"
                className="rounded-md px-2 py-1 text-muted-foreground hover:bg-accent hover:text-foreground max-sm:hidden"
                data-testid="nav-team"
              >
                Team
              </Link>
            )}
          </nav>
          <div className="ml-auto flex items-center gap-2">
            <ModeIndicator
              access={openDev ? { kind: 'open-dev' } : { kind: 'keyed', webAccess: webAccess(), member: account?.guest === false }}
              scriptedAgents={scriptedAgents}
            />
            {account && <AccountMenu account={account} />}
            {!account && (!openDev || accountsAvailable()) && (
              <Button asChild variant="ghost" size="sm">
                <Link href="/sign-in" data-testid="sign-in-link">
                  Sign in
                </Link>
              </Button>
            )}
          </div>
        </header>
        <main className="flex min-h-0 flex-1 flex-col">
          <Providers viewer={{ keyHolder: openDev || account?.guest === false }}>{children}</Providers>
        </main>
      </body>
    </html>
  );
}
