// Anything else under /api/v1 answers in the API's own error shape, not an HTML page: 404, or 405
// (with Allow) on a known path with another method.
import { unknownEndpoint } from '../../http/errors';
import { anthropicErrorResponse } from '../../wire/anthropic/errors';
import { wantsAnthropicShape } from '../../wire/chat/session-key';
import { openAiErrorResponse } from '../../wire/openai/errors';

/** In OpenAI's shape; `allow`: the methods the path takes (405). */
export function openAiNotFound(request: Request, allow?: string): Response {
  return unknownEndpoint(request, allow, openAiErrorResponse);
}

/** In Anthropic's shape; `allow`: the methods the path takes (405). */
export function anthropicNotFound(request: Request, allow?: string): Response {
  return unknownEndpoint(request, allow, anthropicErrorResponse);
}

/** An unknown endpoint, in the shape of the wire that asks. */
export function handleUnknownEndpoint(request: Request): Response {
  return wantsAnthropicShape(request) ? anthropicNotFound(request) : openAiNotFound(request);
}
