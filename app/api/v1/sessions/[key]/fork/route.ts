import { after } from 'next/server';
import { handleFork } from '@/server/routes/agents/fork';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// An edit-and-resend or a regenerate starts a turn that outlives the response (docs/deploy.md): after() keeps it up.
export const maxDuration = 300;

export async function POST(request: Request, { params }: { params: Promise<{ key: string }> }) {
  return handleFork(request, { sessionKey: (await params).key }, after);
}
