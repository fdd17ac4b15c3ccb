import { handleStop } from '@/server/routes/agents/stop';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ key: string }> }) {
  return handleStop(request, { sessionKey: (await params).key });
}
