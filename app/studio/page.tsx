import type { Metadata } from 'next';
import { PageFrame, PageHeader } from '@/components/page-frame';
import { DecisionsExport } from '@/components/studio/decisions-export';
import { DeliveriesPanel } from '@/components/studio/deliveries-panel';
import { StudioInbox } from '@/components/studio/inbox';
import { agentCards } from '@/server/web/agents';

export const metadata: Metadata = { title: 'Studio' };

// Studio: decisions across sessions (docs/studio.md). Everything on it is live from the Studio feed.
// `?decision=<id>` marks the one a link named (an MCP client's, docs/mcp.md).
export default async function StudioPage({ searchParams }: { searchParams: Promise<{ decision?: string | string[] }> }) {
  const { decision } = await searchParams;
  return (
    <PageFrame>
      <PageHeader
        title="Studio"
        description="Every approval and question waiting on a person, across conversations and agents. Decide here and the conversation goes on."
      />
      <StudioInbox agents={await agentCards()} focus={typeof decision === 'string' ? decision : undefined} />
      <DeliveriesPanel />
      <DecisionsExport />
    </PageFrame>
  );
}
