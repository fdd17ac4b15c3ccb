import { after } from 'next/server';
import { handleQueue } from '@/server/routes/agents/queue';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// An add to an idle session or a send-now starts a turn that outlives the response (docs/deploy.md): after() keeps it up.
export const maxDuration = 300;

export async function POST(request: Request, { params }: { params: Promise<{ key: string }> }) {
  return handleQueue(request, { sessionKey: (await params).key }, after);
}
