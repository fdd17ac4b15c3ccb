import { listPending } from '@/server/wire/hitl/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return listPending(request);
}
