// The MCP server one request (2026-07-28) or one MCP session (2025-era) talks to (docs/mcp.md,
// "MCP out"): each agent is a tool `ask_<agent>`, and each of the caller's sessions a read-only
// resource. Built for the one owner that asks (handler.ts). A decision the turn pauses on is asked
// of the client's human the way its era asks: pushed during the call (elicitation/create on the
// 2025 session), or answered `input_required` with a sealed requestState, the retry bringing the
// answers to whichever instance takes it.
import {
  inputRequired,
  inputResponse,
  McpServer,
  ResourceTemplate,
  type CallToolResult,
  type ElicitResult,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { agents } from '../../agents';
import type { DeepAgent } from '../../authoring';
import type { KeepAlive } from '../../http/keep-alive';
import { sessionKeyOf } from '../../runtime';
import { getStore } from '../../store';
import { inputRequestsFor, type ElicitationModes } from '../../wire/mcp/elicitation';
import { askStateCodec, type AskState } from '../../wire/mcp/request-state';
import { toOpenAiSession } from '../../wire/openai/output';
import { readSession } from '../v1/sessions/session';
import { ask, studioLink, type AskResult, type ClientReach, type McpCaller } from './ask';

/** How long a form, or a link the person went to, waits for its human before the call ends with the decision left waiting (it stays open). */
const WAIT_MS = 10 * 60_000;

const SESSIONS = 'stackbone://sessions/{session}';

const askInput = z.object({
  message: z.string().min(1).max(100_000).describe('What to ask the agent.'),
  session: z
    .string()
    .optional()
    .describe('The session key a previous answer named, to continue that conversation. Without it, a new conversation starts; its key is in the answer.'),
});

const askOutput = z.object({
  session: z.string().describe('The session key: pass it as `session` to continue.'),
  status: z.enum(['done', 'waiting', 'failed']).describe('done: the agent answered; waiting: a decision is open (see waiting); failed: the run failed.'),
  waiting: z
    .array(z.object({ id: z.string(), message: z.string(), studio: z.string(), approve: z.string() }))
    .describe('Decisions left open, with where to make them.'),
});

/** Which protocol era the request speaks: 2025's sessions (`legacy`) or 2026-07-28's rounds (`modern`). */
export type McpEra = 'legacy' | 'modern';

export function buildMcpServer(caller: McpCaller, keepAlive: KeepAlive, era: McpEra): McpServer {
  const server = new McpServer(
    { name: 'stackbone', version: '1.0.0' },
    {
      instructions: 'Each ask_<agent> tool sends a message to an agent and returns its reply.',
      // A retry's requestState is checked before the tool runs: sealed by this deployment, for this caller, within its day.
      requestState: { verify: (state, ctx) => askStateCodec().verify(state, ctx) },
    },
  );
  for (const agent of agents) {
    server.registerTool(
      `ask_${agent.name}`,
      {
        title: `Ask ${agent.displayName}`,
        description: `${agent.description} Returns the agent's reply and a session key to continue the conversation. A step that needs a person's approval is asked of you (elicitation) or named with a link to decide it.`,
        inputSchema: askInput,
        outputSchema: askOutput,
      },
      async (input, ctx): Promise<CallToolResult | InputRequiredResult> => {
        const modes = elicitationModes(server);
        if (era === 'legacy') return toolResult(agent, await ask(agent, caller, input, pushedReach(modes, ctx, keepAlive)));
        const state = ctx.mcpReq.requestState<AskState>();
        const result = await ask(agent, caller, input, answeredReach(modes, ctx, state, keepAlive), state);
        if (result.status !== 'input_required') return toolResult(agent, result);
        const inputRequests = inputRequestsFor(result.open!.records, modes, (record) => studioLink(caller, record));
        // Nothing the client can be asked (a question no form can hold, and no URL mode): it waits in the inbox.
        if (!inputRequests) return toolResult(agent, { ...result, status: 'waiting' });
        const next: AskState = { session: result.session, interrupts: result.open!.records.map((record) => record.id), seq: result.open!.seq };
        return inputRequired({ inputRequests, requestState: await askStateCodec().mint(next, ctx) });
      },
    );
  }
  server.registerResource(
    'session',
    new ResourceTemplate(SESSIONS, {
      list: async () => ({
        resources: (await getStore().listSessions(caller.ownerId, { limit: 50 })).map((record) => {
          const key = sessionKeyOf(record.id);
          return { uri: sessionUri(key), name: key, title: record.title ?? key, mimeType: 'application/json' };
        }),
      }),
    }),
    {
      title: 'A conversation',
      description: 'A session as GET /api/v1/sessions/{key} returns it: its messages and the decisions it waits on.',
      mimeType: 'application/json',
    },
    async (uri, { session }) => {
      const key = Array.isArray(session) ? session[0]! : session!;
      const snapshot = await readSession(caller.ownerId, decodeURIComponent(key));
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(toOpenAiSession(snapshot)) }] };
    },
  );
  return server;
}

/** What the client declared it can ask its human: an empty `elicitation: {}` is form mode. */
function elicitationModes(server: McpServer): ElicitationModes {
  const declared = server.server.getClientCapabilities()?.elicitation;
  return { form: declared !== undefined && (declared.form !== undefined || declared.url === undefined), url: declared?.url !== undefined };
}

/** 2025-era: the client is asked during the call, on its session, and the call waits for the answer. */
function pushedReach(modes: ElicitationModes, ctx: ServerContext, keepAlive: KeepAlive): ClientReach {
  // Asked on the call's own stream (the tool call's SSE response), which is open for as long as the
  // call is. Without `relatedRequestId` the SDK sends a request on the session's standalone GET
  // stream, and drops it when that stream is not open: a client may never open it (it is optional),
  // and one that does may not have yet — the call then waited its whole WAIT_MS for an answer
  // nobody was asked for.
  const options = { timeout: WAIT_MS, signal: ctx.mcpReq.signal, relatedRequestId: ctx.mcpReq.id };
  return {
    keepAlive,
    waitMs: WAIT_MS,
    signal: ctx.mcpReq.signal,
    form: modes.form ? (params) => ctx.mcpReq.elicitInput(params, options).catch(() => undefined) : undefined,
    link: modes.url
      ? async (params) => (await ctx.mcpReq.elicitInput({ mode: 'url', ...params }, options).catch(() => undefined))?.action === 'accept'
      : undefined,
  };
}

/**
 * 2026-07-28: the answers are the ones this retry carries, each under the interrupt id it was
 * asked by — and only for the interrupts its sealed state names. What they leave open goes back
 * as input_required (`defer`).
 */
function answeredReach(modes: ElicitationModes, ctx: ServerContext, state: AskState | undefined, keepAlive: KeepAlive): ClientReach {
  const answer = (id: string): ElicitResult | undefined => {
    if (!state?.interrupts.includes(id)) return undefined;
    const view = inputResponse(ctx.mcpReq.inputResponses, id);
    return view.kind === 'elicit' ? { action: view.action, ...(view.content ? { content: view.content as ElicitResult['content'] } : {}) } : undefined;
  };
  return {
    keepAlive,
    waitMs: WAIT_MS,
    signal: ctx.mcpReq.signal,
    defer: (open) => (modes.form || modes.url) && open.some((record) => answer(record.id) === undefined),
    form: modes.form ? async (_params, record) => answer(record.id) : undefined,
    link: modes.url ? async ({ elicitationId }) => answer(elicitationId)?.action === 'accept' : undefined,
  };
}

function sessionUri(key: string): string {
  return SESSIONS.replace('{session}', encodeURIComponent(key));
}

/** The reply as the MCP client reads it: the agent's text, then what to do next; the same as structured content. */
function toolResult(agent: DeepAgent, result: AskResult): CallToolResult {
  const next =
    result.status === 'waiting'
      ? [
          `${agent.displayName} is waiting on a decision:`,
          ...result.waiting.map((entry) => `- ${entry.message} (${entry.id}): decide it in Studio at ${entry.studio}, or POST ${entry.approve}`),
          `It waits until someone decides; then ask again with session "${result.session}" to continue.`,
        ].join('\n')
      : `Session: ${result.session} (pass it as "session" to continue).`;
  const text = [...result.text, ...(result.note ? [result.note] : []), next];
  return {
    content: text.map((paragraph) => ({ type: 'text' as const, text: paragraph })),
    structuredContent: { session: result.session, status: result.status, waiting: result.waiting },
    ...(result.status === 'failed' ? { isError: true } : {}),
  };
}
