// One call of an MCP server's tool, with its elicitations bridged to our inbox (docs/mcp.md,
// "Elicitation"). The server may ask a person mid-call (`elicitation/create`): the first time,
// nobody has answered, so the call is abandoned and the tool pauses with an `input_required`
// interrupt carrying the server's question. When the person answers, the tool runs again from the
// top — the MCP tool is called again — and when the server asks the same question again the
// recorded answer goes back: accept with its content, or decline.
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerSpec } from '../../authoring';
import type { JsonObject } from '../../store/messages';
import { InputRequired, recordedInputAnswers, type InputRequest } from './request-input';
import { describeMcpServer, openMcpConnection, type McpConnection } from './mcp-connection';
import { logFailure } from '../errors';
import { ToolError } from './tool-error';

/** The _meta key a call's idempotency key travels under: a server that keys its side effects by it does them once (docs/mcp.md). */
export const MCP_IDEMPOTENCY_META_KEY = 'io.stackbone/idempotency-key';

/** setTimeout's longest wait: the call's own signal (the tool timeout, a stop) bounds it, not the SDK's 60 s default. */
const NO_REQUEST_TIMEOUT_MS = 2_147_483_647;

const EMPTY_FORM: JsonObject = { type: 'object', properties: {}, additionalProperties: false };

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
    if (answer?.status === 'answered') return { action: 'accept', ...(request.mode === 'url' ? {} : { content: answer.value as ElicitResult['content'] }) };
    if (answer?.status === 'declined') return { action: 'decline' };
    // Nobody has answered yet: the call is given up, and the tool pauses on the question.
    unanswered =
      request.mode === 'url'
        ? { message: request.message, responseSchema: EMPTY_FORM, ...(/^https?:\/\//i.test(request.url) ? { url: request.url } : {}), declineToTool: true }
        : { message: request.message, responseSchema: request.requestedSchema as JsonObject, declineToTool: true };
    call.abort('input required');
    throw new Error('The question waits for a person; the call is asked again once they answer.');
  });
  try {
    const result = (await connection.client.callTool(
      { name: options.tool, arguments: (options.input ?? {}) as Record<string, unknown>, _meta: { [MCP_IDEMPOTENCY_META_KEY]: options.idempotencyKey } },
      undefined,
      { signal: call.signal, timeout: NO_REQUEST_TIMEOUT_MS },
    )) as CallToolResult;
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
