import { handleChatCompletions, openAiNotFound } from '@/server/wire/openai/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  return handleChatCompletions(request);
}

export function GET(request: Request) {
  return openAiNotFound(request, 'POST');
}
