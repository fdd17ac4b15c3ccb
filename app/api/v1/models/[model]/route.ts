import { handleAnthropicModels } from '@/server/wire/anthropic/handler';
import { handleOpenAiModels } from '@/server/wire/openai/handler';
import { wantsAnthropicShape } from '@/server/wire/chat/session-key';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ model: string }> }) {
  const { model } = await params;
  return wantsAnthropicShape(request) ? handleAnthropicModels(request, model) : handleOpenAiModels(request, model);
}
