import { ArrowLeftIcon } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { PageFrame, PageHeader } from '@/components/page-frame';
import { ApprovalMetricsView } from '@/components/studio/approval-metrics-view';
import { Button } from '@/components/ui/button';

export const metadata: Metadata = { title: 'Approval metrics · Studio' };

// Studio → Approval metrics (docs/studio.md, "Approval metrics"): read through the owner-scoped
// API, so a keyed server asks whoever is not signed in to sign in first.
export default function ApprovalMetricsPage() {
  return (
    <PageFrame>
      <PageHeader
        title="Approval metrics"
        description="How the approvals you decide are going: what waits now, how long people take to decide, and what they decided, tool by tool."
        before={
          <Button asChild variant="ghost" size="sm" className="-ml-2 text-muted-foreground">
            <Link href="/studio">
              <ArrowLeftIcon aria-hidden />
              Inbox
            </Link>
          </Button>
        }
      />
      <ApprovalMetricsView />
    </PageFrame>
  );
}
