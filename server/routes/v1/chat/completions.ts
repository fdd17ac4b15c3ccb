// POST /api/v1/chat/completions: the OpenAI-compatible wire (docs/internals/wires.md). The request and the
// turn go through the shared chat handler (routes/v1/chat-turn.ts); the OpenAI wire gives the shapes.
import { noKeepAlive, type KeepAlive } from '../../../http/keep-alive';
import { openAiErrorResponse } from '../../../wire/openai/errors';
import { parseChatCompletionRequest } from '../../../wire/openai/input';
import { openAiModelNotFound } from '../../../wire/openai/models';
import { chatCompletion, completionChunks, completionMeta, DONE } from '../../../wire/openai/output';
import { handleChatTurn } from '../chat-turn';

export function handleChatCompletions(request: Request, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  return handleChatTurn(request, keepAlive, {
    source: 'openai',
    parse: parseChatCompletionRequest,
    modelNotFound: openAiModelNotFound,
    meta: completionMeta,
    requestIdHeader: 'x-request-id',
    chunks: (run, meta, input) => completionChunks(run, meta, input.includeUsage),
    encode: (chunk) => `data: ${chunk === DONE ? DONE : JSON.stringify(chunk)}\n\n`,
    body: chatCompletion,
    errorResponse: openAiErrorResponse,
  });
}
