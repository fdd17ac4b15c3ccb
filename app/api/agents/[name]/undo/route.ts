import { after } from 'next/server';
import { handleUndo } from '@/server/routes/agents/undo';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// The undo's turn outlives the response (docs/deploy.md): after() keeps it up.
export const maxDuration = 300;

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }) {
  return handleUndo(request, { agent: (await params).name }, after);
}
