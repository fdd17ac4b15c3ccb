import { handleApprovalMetrics } from '@/server/routes/studio/approval-metrics';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return handleApprovalMetrics(request);
}
