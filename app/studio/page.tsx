import { ChartBarStackedIcon } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { PageFrame, PageHeader } from '@/components/page-frame';
import { DecisionsExport } from '@/components/studio/decisions-export';
import { DeliveriesPanel } from '@/components/studio/deliveries-panel';
import { StudioInbox } from '@/components/studio/inbox';
import { Button } from '@/components/ui/button';
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
      >
        <Button asChild variant="secondary" size="sm">
          <Link href="/studio/metrics" data-testid="studio-metrics-link">
            <ChartBarStackedIcon aria-hidden />
            Approval metrics
          </Link>
        </Button>
      </PageHeader>
      <StudioInbox agents={await agentCards()} focus={typeof decision === 'string' ? decision : undefined} />
      <DeliveriesPanel />
      <DecisionsExport />
    </PageFrame>
  );
}
