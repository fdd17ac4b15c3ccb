import { handleSessionList } from '@/server/web/list-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return handleSessionList(request);
}
