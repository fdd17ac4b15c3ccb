import { handleAnthropicModels } from '@/server/wire/anthropic/handler';
import { handleOpenAiModels } from '@/server/wire/openai/handler';
import { wantsAnthropicShape } from '@/server/wire/chat/session-key';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The models are the agents; Anthropic clients (anthropic-version header) get the Models API shape.
export function GET(request: Request) {
  return wantsAnthropicShape(request) ? handleAnthropicModels(request) : handleOpenAiModels(request);
}
