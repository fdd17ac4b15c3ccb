import { handleStop } from '@/server/routes/agents/stop';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }) {
  return handleStop(request, { agent: (await params).name });
}
