// POST /api/agents/{name}: AG-UI over SSE (SPEC §5). Parse, hand to the runtime, translate.
import { EventType, type BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import { findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { HttpError, jsonError } from '../../http/errors';
import { resolveOwner } from '../../http/owner';
import { sseResponse } from '../../http/sse';
import { RunRejectedError } from '../../runtime/errors';
import { startRun } from '../../runtime/turn';
import { getStore } from '../../store';
import { toAgUiEvent } from './events';
import { fromAgUiMessages, fromAgUiTools, parseRunAgentInput } from './input';

export async function handleAgUiRun(request: Request, agentName: string): Promise<Response> {
  try {
    const agent = findAgent(agentName);
    if (!agent) throw new HttpError(404, 'agent_not_found', `No agent named "${agentName}".`);
    const ownerId = resolveOwner(request, { browser: true });
    const input = parseRunAgentInput(await readJsonBody(request));
    const encoder = new EventEncoder({ accept: request.headers.get('accept') ?? undefined });
    const context = { threadId: input.threadId, runId: input.runId, strict: input.protocolVersion === '1.0' };

    let run;
    try {
      run = await startRun({
        agent,
        store: getStore(),
        sessionId: input.threadId,
        ownerId,
        runId: input.runId,
        parentRunId: input.parentRunId,
        source: 'agui',
        messages: fromAgUiMessages(input.messages),
        clientTools: fromAgUiTools(input.tools),
        state: input.state,
        resume: input.resume,
        signal: request.signal,
      });
    } catch (error) {
      if (error instanceof RunRejectedError && error.code === 'not_found') throw new HttpError(404, error.code, error.message);
      if (!(error instanceof RunRejectedError)) throw error;
      // A refused run is still an AG-UI run: it starts and ends with RUN_ERROR, having written nothing.
      return sseResponse(
        (async function* () {
          yield { type: EventType.RUN_STARTED, ...context } as BaseEvent;
          // metadata names what was refused (e.g. the interrupt), so a client can point at it.
          yield { type: EventType.RUN_ERROR, code: error.code, message: error.message, ...(error.details ? { metadata: error.details } : {}) } as BaseEvent;
        })(),
        (event) => encoder.encodeSSE(event),
      );
    }
    const parts = run.parts;
    return sseResponse(
      (async function* () {
        for await (const part of parts) yield toAgUiEvent(part, context);
      })(),
      (event) => encoder.encodeSSE(event),
    );
  } catch (error) {
    if (error instanceof HttpError) return jsonError(error);
    console.error('[stackbone] AG-UI request failed', error);
    return jsonError(new HttpError(500, 'internal_error', 'The server failed to handle this request.'));
  }
}
