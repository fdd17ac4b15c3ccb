import { after } from 'next/server';
import { handleChatCompletions } from '@/server/routes/v1/chat/completions';
import { openAiNotFound } from '@/server/routes/v1/not-found';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// A durable turn outlives its request (docs/internals/architecture.md): after() keeps the function up until it ends.
export const maxDuration = 300;

export async function POST(request: Request) {
  return handleChatCompletions(request, after);
}

export function GET(request: Request) {
  return openAiNotFound(request, 'POST');
}
