import type { Metadata } from 'next';
import Link from 'next/link';
import { PageFrame, PageHeader } from '@/components/page-frame';
import { ApiKeysPanel } from '@/components/studio/api-keys-panel';
import { TeamPanel } from '@/components/studio/team-panel';
import { pageCaller } from '@/server/identity/page-owner';

export const metadata: Metadata = { title: 'Team · Studio' };

// Studio → Team: who signed up and their roles, and a member's own API keys (docs/users-and-roles.md).
export default async function StudioTeamPage() {
  // Keys are a person's: shown to someone signed in to an account.
  const member = (await pageCaller())?.credential === 'user';
  return (
    <PageFrame>
      <PageHeader
        title="Team"
        description={
          <>
            Give people the roles your approval policies name. Back to{' '}
            <Link href="/studio" className="underline underline-offset-4">
              Studio
            </Link>
            .
          </>
        }
      />
      <TeamPanel />
      {member && <ApiKeysPanel />}
    </PageFrame>
  );
}
