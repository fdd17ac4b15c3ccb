import type { Metadata } from 'next';
import Link from 'next/link';
import { PageFrame, PageHeader } from '@/components/page-frame';
import { TeamPanel } from '@/components/studio/team-panel';

export const metadata: Metadata = { title: 'Team · Studio' };

// Studio → Team: who signed up and their roles (docs/users-and-roles.md, "Roles").
export default function StudioTeamPage() {
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
    </PageFrame>
  );
}
