import { handleAnthropicSession } from '@/server/wire/anthropic/handler';
import { handleOpenAiSession } from '@/server/wire/openai/handler';
import { wantsAnthropicShape } from '@/server/wire/chat/session-key';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// OpenAI shape by default; Anthropic shape with ?format=anthropic or an anthropic-version header.
export async function GET(request: Request, { params }: { params: Promise<{ key: string }> }) {
  const { key } = await params;
  return wantsAnthropicShape(request) ? handleAnthropicSession(request, key) : handleOpenAiSession(request, key);
}
