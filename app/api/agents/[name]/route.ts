import { after } from 'next/server';
import { handleAgUiRun } from '@/server/routes/agents/run';
import { handleAgUiThread } from '@/server/routes/agents/thread';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// A run outlives its request (docs/internals/architecture.md): after() keeps the function up until it ends.
export const maxDuration = 300;

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }) {
  return handleAgUiRun(request, (await params).name, after);
}

export async function GET(request: Request, { params }: { params: Promise<{ name: string }> }) {
  return handleAgUiThread(request, (await params).name);
}
