// POST /api/v1/messages: the Anthropic-compatible wire (docs/internals/wires.md). The request and the turn
// go through the shared chat handler (routes/v1/chat-turn.ts); the Anthropic wire gives the shapes.
import { noKeepAlive, type KeepAlive } from '../../http/keep-alive';
import { anthropicErrorResponse } from '../../wire/anthropic/errors';
import { parseMessagesRequest } from '../../wire/anthropic/input';
import { anthropicModelNotFound } from '../../wire/anthropic/models';
import { encodeEvent, message, messageEvents, messageMeta } from '../../wire/anthropic/output';
import { handleChatTurn } from './chat-turn';

export function handleMessages(request: Request, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  // resolveOwner reads both x-api-key and Authorization: Bearer.
  return handleChatTurn(request, keepAlive, {
    source: 'anthropic',
    parse: parseMessagesRequest,
    modelNotFound: anthropicModelNotFound,
    meta: messageMeta,
    requestIdHeader: 'request-id',
    chunks: (run, meta) => messageEvents(run, meta),
    encode: encodeEvent,
    body: message,
    errorResponse: anthropicErrorResponse,
  });
}
