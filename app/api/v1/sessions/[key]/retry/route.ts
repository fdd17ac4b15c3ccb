import { after } from 'next/server';
import { handleSessionRetry } from '@/server/routes/v1/sessions/retry';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// The retried turn runs after the response (docs/turn-control.md): after() keeps it up.
export const maxDuration = 300;

export async function POST(request: Request, { params }: { params: Promise<{ key: string }> }) {
  return handleSessionRetry(request, (await params).key, after);
}
