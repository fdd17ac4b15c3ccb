import { handleAgentList } from '@/server/routes/agents/list';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function GET(request: Request) {
  return handleAgentList(request);
}
