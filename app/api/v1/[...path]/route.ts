import { anthropicNotFound } from '@/server/wire/anthropic/handler';
import { openAiNotFound } from '@/server/wire/openai/handler';
import { wantsAnthropicShape } from '@/server/wire/chat/session-key';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Unknown endpoints under /api/v1 answer in the API's own error shape, not an HTML page.
function notFound(request: Request) {
  return wantsAnthropicShape(request) ? anthropicNotFound(request) : openAiNotFound(request);
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
