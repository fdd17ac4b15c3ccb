import { after } from 'next/server';
import { handleMessages } from '@/server/routes/v1/messages';
import { anthropicNotFound } from '@/server/routes/v1/not-found';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// A durable turn outlives its request (docs/internals/architecture.md): after() keeps the function up until it ends.
export const maxDuration = 300;

export async function POST(request: Request) {
  return handleMessages(request, after);
}

export function GET(request: Request) {
  return anthropicNotFound(request, 'POST');
}
