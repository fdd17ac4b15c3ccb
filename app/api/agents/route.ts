import { handleAgentList } from '@/server/web/list-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function GET(request: Request) {
  return handleAgentList(request);
}
