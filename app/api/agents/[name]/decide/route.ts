import { after } from 'next/server';
import { handleChatDecision } from '@/server/routes/agents/decide';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// A decision that completes its batch starts the continuation, which outlives the response.
export const maxDuration = 300;

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }) {
  return handleChatDecision(request, (await params).name, after);
}
