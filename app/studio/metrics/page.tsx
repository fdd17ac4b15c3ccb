import type { Metadata } from 'next';
import { PageFrame, PageHeader } from '@/components/page-frame';
import { BackToInbox } from '@/components/studio/back-to-inbox';
import { ApprovalMetricsView } from '@/components/studio/approval-metrics-view';

export const metadata: Metadata = { title: 'Approval metrics · Studio' };

// Studio → Approval metrics (docs/studio.md, "Approval metrics"): read through the owner-scoped
// API, so a keyed server asks whoever is not signed in to sign in first.
export default function ApprovalMetricsPage() {
  return (
    <PageFrame>
      <PageHeader
        title="Approval metrics"
        description="How the approvals you decide are going: what waits now, how long people take to decide, and what they decided, tool by tool."
        before={<BackToInbox />}
      />
      <ApprovalMetricsView />
    </PageFrame>
  );
}
