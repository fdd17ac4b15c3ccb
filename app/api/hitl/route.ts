import { listPending } from '@/server/routes/hitl/inbox';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return listPending(request);
}
