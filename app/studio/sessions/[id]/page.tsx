import type { Metadata } from 'next';
import { PageFrame, PageHeader } from '@/components/page-frame';
import { BackToInbox } from '@/components/studio/back-to-inbox';
import { AuditTrailView } from '@/components/studio/audit-trail-view';
import { agentCards } from '@/server/web/agents';

export const metadata: Metadata = { title: 'Audit trail · Studio' };

// One session's audit trail (docs/studio.md); it reads through the owner-scoped API, so a
// keyed server asks for the key first.
export default async function AuditTrailPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <PageFrame className="max-w-3xl">
      <PageHeader
        title="Audit trail"
        description="Everything that happened in this conversation, in order: messages, tool calls, pauses, and who decided what, from where."
        before={<BackToInbox />}
      />
      <AuditTrailView sessionId={id} agents={await agentCards()} />
    </PageFrame>
  );
}
