// GET /api/v1/sessions/{key}: the session as its owner sees it, in the shape of the wire that asks
// — OpenAI's by default, Anthropic's with ?format=anthropic or an anthropic-version header
// (docs/internals/wires.md, "Sessions: x-stackbone-session").
import { findAgent } from '../../../agents';
import { resolveOwner } from '../../../identity/owner';
import { isExpired, ownedSession, pendingInterrupts, queueItems, readViewAndQueue, scopedSessionId } from '../../../runtime';
import { getStore } from '../../../store';
import { anthropicErrorResponse } from '../../../wire/anthropic/errors';
import { toAnthropicSession } from '../../../wire/anthropic/output';
import { wantsAnthropicShape } from '../../../wire/chat/session-key';
import type { SessionSnapshot } from '../../../wire/chat/session-snapshot';
import { openAiErrorResponse } from '../../../wire/openai/errors';
import { toOpenAiSession } from '../../../wire/openai/output';
import { jsonResponse } from '../../../http/small-answers';

/** The session as its owner sees it; an unknown or foreign one is not found (both the same 404). The MCP server reads it too (routes/mcp). */
export async function readSession(ownerId: string, key: string): Promise<SessionSnapshot> {
  const store = getStore();
  const record = await ownedSession(store, { sessionId: scopedSessionId(ownerId, key), ownerId });
  const agent = findAgent(record.agent);
  // The queue, then the log: a message going out between the two reads shows once (queue.ts).
  const { view, queue } = await readViewAndQueue(store, record.id, agent?.initialState ?? {});
  const now = Date.now();
  return { key, record, view, pending: pendingInterrupts(view).filter((interrupt) => !isExpired(interrupt, now)), queue: queueItems(queue) };
}

/** GET /api/v1/sessions/{key}, in the shape of the wire that asks. */
async function handleSessionRead(
  request: Request,
  key: string,
  wire: { shape: (snapshot: SessionSnapshot) => unknown; errorResponse: (error: unknown) => Response },
): Promise<Response> {
  try {
    const snapshot = await readSession(await resolveOwner(request), key);
    return jsonResponse(wire.shape(snapshot), { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    return wire.errorResponse(error);
  }
}

/** GET /api/v1/sessions/{key} in OpenAI shape. */
function handleOpenAiSession(request: Request, key: string): Promise<Response> {
  return handleSessionRead(request, key, { shape: toOpenAiSession, errorResponse: openAiErrorResponse });
}

/** GET /api/v1/sessions/{key} in Anthropic shape. */
function handleAnthropicSession(request: Request, key: string): Promise<Response> {
  return handleSessionRead(request, key, { shape: toAnthropicSession, errorResponse: anthropicErrorResponse });
}

/** OpenAI shape by default; Anthropic shape with ?format=anthropic or an anthropic-version header. */
export function handleSession(request: Request, key: string): Promise<Response> {
  return wantsAnthropicShape(request) ? handleAnthropicSession(request, key) : handleOpenAiSession(request, key);
}
