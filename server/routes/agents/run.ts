// POST /api/agents/{name}: AG-UI over SSE (docs/internals/wires.md). Parse, hand to the runtime,
// translate. The run belongs to its session: the response only reads it, so a client that
// goes away leaves it running (docs/internals/architecture.md, "The life of a run").
import { findAgent } from '../../agents';
import { agUiAnswer } from '../../error-codes';
import { readJsonBody } from '../../http/body';
import { errorResponse, HttpError } from '../../http/errors';
import { noKeepAlive, type KeepAlive } from '../../http/keep-alive';
import { takeRunSlot, takeStreamSlot, type StreamSlot } from '../../http/limits';
import { resolveCaller } from '../../identity/owner';
import { forkThread, parseCursor, Refusal, refuseThreadOnlyInput, scopedSessionId, startRun, startStatelessRun, type StartedRun } from '../../runtime';
import { callerIdentity } from '../../identity/decision-actor';
import { getStore } from '../../store';
import { agUiAttachmentClaims } from '../../wire/agui/content-parts';
import {
  fromAgUiFork,
  fromAgUiMessages,
  fromAgUiModel,
  fromAgUiResume,
  fromAgUiRetry,
  fromAgUiTools,
  parseRunAgentInput,
  seedsState,
} from '../../wire/agui/input';
import { agUiStream, refusedRun } from '../../wire/agui/stream';
import { resolveAttachmentClaims } from './attachment-claims';
import { joinRun } from './thread';

export async function handleAgUiRun(request: Request, agentName: string, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  let slot: StreamSlot | undefined;
  let running: StreamSlot | undefined;
  try {
    const agent = findAgent(agentName);
    if (!agent) throw new HttpError('not_found', `No agent named "${agentName}".`, { what: 'agent' });
    const caller = await resolveCaller(request, { browser: true });
    const { ownerId } = caller;
    const input = parseRunAgentInput(await readJsonBody(request));
    // Before a stream: a part naming a file that is not the caller's is refused over HTTP (docs/internals/wires.md, "Content parts").
    const attachments = await resolveAttachmentClaims(ownerId, agent.name, agUiAttachmentClaims(input.messages));
    // The answer is a stream: 429 when the owner (or a browser's address) has the most open, before anything is written (docs/security.md).
    slot = takeStreamSlot(ownerId, request);
    const context = {
      threadId: input.threadId,
      runId: input.runId,
      strict: input.protocolVersion === '1.0',
      accept: request.headers.get('accept') ?? undefined,
      slot,
    };

    // A client re-sending its request after a dropped connection (as TanStack AI's does)
    // re-joins the run it started instead of starting another.
    const lastEventId = parseCursor(request.headers.get('last-event-id'));
    if (lastEventId && !input.stateless) {
      const joined = await joinRun(request, agent, ownerId, { threadId: input.threadId, runId: input.runId, after: lastEventId, strict: context.strict, slot });
      if (joined) return joined;
    }

    let run: StartedRun;
    // A browser's turn holds a place of its address until it ends, not until its response does (docs/security.md, "The open web").
    running = takeRunSlot(ownerId, request);
    try {
      const fork = fromAgUiFork(input.forwardedProps);
      if (input.stateless) {
        // No threadId: the request's messages are the whole conversation, and nothing is kept (docs/internals/wires.md, "Stateless AG-UI runs").
        const messages = fromAgUiMessages(input.messages, attachments);
        refuseThreadOnlyInput({
          toolResult: messages.at(-1)?.role === 'tool',
          state: seedsState(input.state),
          decisions: (input.resume?.length ?? 0) > 0,
          retry: fromAgUiRetry(input.forwardedProps) !== undefined || fork !== undefined,
        });
        run = await startStatelessRun({
          agent,
          ownerId,
          source: 'agui',
          history: messages,
          clientTools: fromAgUiTools(input.tools),
          model: fromAgUiModel(input.forwardedProps),
          durableHint: 'Send a threadId: a durable thread can wait for a person.',
        });
      } else if (fork) {
        // A new thread from a message of another: the request's threadId names it (docs/time-travel.md).
        const resent = fork.regenerate ? undefined : fromAgUiMessages(input.messages, attachments).findLast((message) => message.role === 'user');
        if (!fork.regenerate && !resent) throw new HttpError('invalid_request', 'An edit-and-resend (forwardedProps.fork) carries the new user message last.');
        const forked = await forkThread({
          findAgent,
          agent: agent.name,
          store: getStore(),
          ownerId,
          threadId: fork.threadId,
          atMessageId: fork.atMessageId,
          mode: fork.regenerate ? 'regenerate' : 'edit',
          message: resent,
          newThreadId: input.threadId,
          runId: input.runId,
          source: 'agui',
          model: fromAgUiModel(input.forwardedProps),
        });
        run = forked.run!;
      } else
        run = await startRun({
          agent,
          store: getStore(),
          sessionId: scopedSessionId(ownerId, input.threadId),
          ownerId,
          runId: input.runId,
          parentRunId: input.parentRunId,
          source: 'agui',
          messages: fromAgUiMessages(input.messages, attachments),
          clientTools: fromAgUiTools(input.tools),
          state: input.state,
          decisions: fromAgUiResume(input.resume),
          decidedBy: { source: 'agui', ...callerIdentity(caller) },
          // A client may resend a resume it is unsure arrived: an identical one is answered, not refused.
          replayable: true,
          retry: fromAgUiRetry(input.forwardedProps),
          model: fromAgUiModel(input.forwardedProps),
          // A message sent while a turn runs waits its turn (docs/turn-control.md, "Queue"); one sent
          // while a decision is pending is refused as interrupts_pending, as an AG-UI client expects
          // (the web app queues it through /queue instead).
          queue: 'running',
        });
    } catch (error) {
      running.release();
      // A refusal is a RUN_ERROR, but for what has no stream to answer in: an unknown session (docs/errors.md).
      if (!(error instanceof Refusal) || agUiAnswer(error.code, error.details) === 'HTTP') throw error;
      return refusedRun(error, context);
    }
    const place = running;
    void run.done.then(place.release, place.release);
    keepAlive(run.done);
    return agUiStream(run.stream(null, request.signal), context);
  } catch (error) {
    slot?.release();
    running?.release();
    return errorResponse(error, 'AG-UI request');
  }
}
