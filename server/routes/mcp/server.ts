// The MCP server one MCP session talks to (docs/mcp.md, "MCP out"): each agent is a tool
// `ask_<agent>`, and each of the caller's sessions a read-only resource. Built per MCP session,
// for the one owner that opened it (handler.ts).
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { agents } from '../../agents';
import type { DeepAgent } from '../../authoring';
import type { KeepAlive } from '../../http/keep-alive';
import { sessionKeyOf } from '../../runtime';
import { getStore } from '../../store';
import { toOpenAiSession } from '../../wire/openai/output';
import { readSession } from '../v1/sessions/session';
import { ask, type AskResult, type ClientReach, type McpCaller } from './ask';

/** How long a form, or a link the person went to, waits for its human before the call ends with the decision left waiting (it stays open). */
const WAIT_MS = 10 * 60_000;

const SESSIONS = 'stackbone://sessions/{session}';

const askInput = {
  message: z.string().min(1).max(100_000).describe('What to ask the agent.'),
  session: z
    .string()
    .optional()
    .describe('The session key a previous answer named, to continue that conversation. Without it, a new conversation starts; its key is in the answer.'),
};

const askOutput = {
  session: z.string().describe('The session key: pass it as `session` to continue.'),
  status: z.enum(['done', 'waiting', 'failed']).describe('done: the agent answered; waiting: a decision is open (see waiting); failed: the run failed.'),
  waiting: z
    .array(z.object({ id: z.string(), message: z.string(), studio: z.string(), approve: z.string() }))
    .describe('Decisions left open, with where to make them.'),
};

export function buildMcpServer(caller: McpCaller, keepAlive: KeepAlive): McpServer {
  const server = new McpServer(
    { name: 'stackbone', version: '1.0.0' },
    { instructions: 'Each ask_<agent> tool sends a message to an agent and returns its reply.' },
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
      async (input, extra) => {
        const capabilities = server.server.getClientCapabilities()?.elicitation;
        const reach: ClientReach = {
          keepAlive,
          waitMs: WAIT_MS,
          signal: extra.signal,
          // Sent on the tool call's own stream (relatedRequestId): the client answers while the call is open.
          form: capabilities?.form
            ? (params) =>
                server.server.elicitInput(params, { relatedRequestId: extra.requestId, timeout: WAIT_MS, signal: extra.signal }).catch(() => undefined)
            : undefined,
          link: capabilities?.url
            ? async (params) => {
                const answer = await server.server
                  .elicitInput({ mode: 'url', ...params }, { relatedRequestId: extra.requestId, timeout: WAIT_MS, signal: extra.signal })
                  .catch(() => undefined);
                return answer?.action === 'accept';
              }
            : undefined,
        };
        return toolResult(agent, await ask(agent, caller, input, reach));
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
