import { exportDecisions } from '@/server/routes/hitl/decisions';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return exportDecisions(request);
}
