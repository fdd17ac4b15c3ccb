import { after } from 'next/server';
import { handleWebhook } from '@/server/routes/webhooks/agent';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// The turn the webhook starts outlives the response (docs/turn-control.md): after() keeps it up.
export const maxDuration = 300;

export async function POST(request: Request, { params }: { params: Promise<{ agent: string }> }) {
  return handleWebhook(request, (await params).agent, after);
}
