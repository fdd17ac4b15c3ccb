// One call of an MCP server's tool, with the server's questions bridged to our inbox (docs/mcp.md,
// "Elicitation"). A question becomes an `input_required` interrupt carrying the server's message
// and form; when the person answers, the tool runs again and the answer goes back — accept with
// its content, or decline. How it goes back depends on the server's protocol era:
// - 2025-era: the server asks mid-call (`elicitation/create`). The first time nobody has
//   answered, so the call is abandoned; run again, the MCP tool is called again from the top and
//   when the server asks the same question the recorded answer goes back.
// - 2026-07-28: the server answers the call `input_required` (its questions and a requestState).
//   The pause keeps that round (`resume` on the interrupt); run again, the call goes straight to
//   the retry with the answers and the server's requestState — unless the server no longer takes
//   that state (it expired), when the call starts over and the recorded answers go back in order.
import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ElicitResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/client';
import type { McpServerSpec } from '../../authoring';
import type { JsonObject } from '../../store/messages';
import { InputRequired, recordedInputAnswers, type InputAnswer, type InputRequest } from './request-input';
import { describeMcpServer, openMcpConnection, type McpConnection } from './mcp-connection';
import { logFailure } from '../errors';
import { ToolError } from './tool-error';

/** The _meta key a call's idempotency key travels under: a server that keys its side effects by it does them once (docs/mcp.md). */
export const MCP_IDEMPOTENCY_META_KEY = 'io.stackbone/idempotency-key';

/** setTimeout's longest wait: the call's own signal (the tool timeout, a stop) bounds it, not the SDK's 60 s default. */
const NO_REQUEST_TIMEOUT_MS = 2_147_483_647;

const EMPTY_FORM: JsonObject = { type: 'object', properties: {}, additionalProperties: false };

/** An elicitation's params as either era sends them (form, or URL mode). */
type ElicitParams = { mode?: string; message: string; requestedSchema?: unknown; url?: string };

/** A 2026-07-28 round the call paused in: the request the person answers, the answers its other requests got, the server's state. */
interface Round {
  key: string;
  /** The question is a link (URL mode): its accept carries no content. */
  link?: true;
  responses: Record<string, ElicitResult>;
  requestState?: string;
}

type Retry = { inputResponses: Record<string, ElicitResult>; requestState?: string };

export async function callMcpTool(options: {
  server: McpServerSpec;
  /** The tool's name on its server (without our prefix). */
  tool: string;
  input: unknown;
  idempotencyKey: string;
  signal: AbortSignal;
}): Promise<unknown> {
  const answers = recordedInputAnswers();
  const call = new AbortController();
  const stop = () => call.abort(options.signal.reason);
  options.signal.addEventListener('abort', stop, { once: true });
  let unanswered: InputRequest | undefined;
  const connection = await reach(options.server, async (request): Promise<ElicitResult> => {
    const answer = answers.next();
    if (answer) return responseTo(answer, request.mode === 'url');
    // Nobody has answered yet: the call is given up, and the tool pauses on the question.
    unanswered = questionOf(request);
    call.abort('input required');
    throw new Error('The question waits for a person; the call is asked again once they answer.');
  });
  const params = {
    name: options.tool,
    arguments: (options.input ?? {}) as Record<string, unknown>,
    _meta: { [MCP_IDEMPOTENCY_META_KEY]: options.idempotencyKey },
  };
  const send = (retry?: Retry) =>
    connection.client.request(
      { method: 'tools/call', params: { ...params, ...retry } },
      { signal: call.signal, timeout: NO_REQUEST_TIMEOUT_MS, allowInputRequired: true },
    ) as Promise<CallToolResult | InputRequiredResult>;
  try {
    const result = await inRounds(send, answers);
    if (unanswered) throw new InputRequired(unanswered);
    if (result.isError) throw new ToolError(textOf(result) || `The MCP tool "${options.tool}" failed.`);
    return outputOf(result);
  } catch (error) {
    if (unanswered) throw new InputRequired(unanswered);
    throw error;
  } finally {
    options.signal.removeEventListener('abort', stop);
    await connection.close();
  }
}

/** The call through its 2026-07-28 rounds (a 2025-era server never answers input_required: one round). */
async function inRounds(
  send: (retry?: Retry) => Promise<CallToolResult | InputRequiredResult>,
  answers: ReturnType<typeof recordedInputAnswers>,
): Promise<CallToolResult> {
  let result: CallToolResult | InputRequiredResult | undefined;
  const latest = answers.all.at(-1);
  const paused = latest?.resume as Round | undefined;
  if (paused) {
    try {
      // Taken up where it paused: the round's other answers, this one's, the server's own state.
      result = await send({ inputResponses: { ...paused.responses, [paused.key]: responseTo(latest!, paused.link === true) }, ...state(paused.requestState) });
      while (answers.next());
    } catch (error) {
      // The server no longer takes that state (it expired, or its key changed): from the top, the answers going back in order.
      if (!(error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams)) throw error;
    }
  }
  result ??= await send();
  while (isInputRequiredResult(result)) {
    const responses: Record<string, ElicitResult> = {};
    for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
      // Only elicitation is offered (no sampling or roots), so a server may ask for nothing else.
      if (request.method !== 'elicitation/create') throw new ToolError(`The MCP server asked for "${request.method}", which this client does not offer.`);
      const asked = request.params as ElicitParams;
      const answer = answers.next();
      if (!answer) {
        const round: Round = { key, ...(asked.mode === 'url' ? { link: true as const } : {}), responses, ...state(result.requestState) };
        throw new InputRequired({ ...questionOf(asked), resume: round as unknown as JsonObject });
      }
      responses[key] = responseTo(answer, asked.mode === 'url');
    }
    result = await send({ inputResponses: responses, ...state(result.requestState) });
  }
  return result;
}

function state(requestState: string | undefined): { requestState?: string } {
  return requestState === undefined ? {} : { requestState };
}

/** A server's question as ours: its form, or a link to open (URL mode); a decline goes back to the tool. */
function questionOf(request: ElicitParams): InputRequest {
  return request.mode === 'url'
    ? {
        message: request.message,
        responseSchema: EMPTY_FORM,
        ...(request.url && /^https?:\/\//i.test(request.url) ? { url: request.url } : {}),
        declineToTool: true,
      }
    : { message: request.message, responseSchema: request.requestedSchema as JsonObject, declineToTool: true };
}

/** A recorded answer as MCP's: accept (with the content, unless it answered a link), or decline. */
function responseTo(answer: InputAnswer, link: boolean): ElicitResult {
  if (answer.status === 'declined') return { action: 'decline' };
  return { action: 'accept', ...(link ? {} : { content: answer.value as ElicitResult['content'] }) };
}

/** A connection, or a ToolError the model and the person can read: the call was not made. */
async function reach(server: McpServerSpec, onElicit: Parameters<typeof openMcpConnection>[1]): Promise<McpConnection> {
  try {
    return await openMcpConnection(server, onElicit);
  } catch (error) {
    const reference = logFailure(`${describeMcpServer(server)} could not be reached`, error);
    throw new ToolError(`The MCP server "${server.name}" could not be reached (ref ${reference}); the tool was not called.`);
  }
}

function textOf(result: CallToolResult): string {
  return result.content
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();
}

/** What the model reads: the structured result when there is one, else the text, else the content as sent. */
function outputOf(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (result.content.every((part) => part.type === 'text')) return textOf(result);
  return result.content;
}
