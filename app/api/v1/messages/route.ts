import { anthropicNotFound, handleMessages } from '@/server/wire/anthropic/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  return handleMessages(request);
}

export function GET(request: Request) {
  return anthropicNotFound(request, 'POST');
}
