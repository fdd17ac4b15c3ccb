// One agent at a route of the app's choosing, in one line (docs/hitl.md, "Your own route"):
//
//   // app/api/tools/[[...command]]/route.ts
//   export const { GET, POST } = agentRoute(toolsAssistant);
//
// serves the agent's AG-UI run (POST /api/tools) and thread (GET /api/tools), and the commands
// useAgent sends beside them (POST /api/tools/decide, /stop, /steer, /queue, /state, /undo, /fork,
// /attachments) — what /api/agents/{name} serves for every listed agent, so
// `useAgent({ api: '/api/tools', id })` works against it as against the agent's own route.
import { after } from 'next/server';
import type { DeepAgent } from '@/server/agent-kit';
import { findAgent } from '@/server/agents';
import { jsonError, unknownEndpoint } from '@/server/http/errors';
import { handleUploadAttachment } from '@/server/routes/agents/attachments';
import { handleChatDecision } from '@/server/routes/agents/decide';
import { handleFork } from '@/server/routes/agents/fork';
import { handleQueue } from '@/server/routes/agents/queue';
import { handleAgUiRun } from '@/server/routes/agents/run';
import { handleStateWrite } from '@/server/routes/agents/state';
import { handleSteer } from '@/server/routes/agents/steer';
import { handleStop } from '@/server/routes/agents/stop';
import { handleAgUiThread } from '@/server/routes/agents/thread';
import { handleUndo } from '@/server/routes/agents/undo';

/** The commands beside the run, by the path segment useAgent posts them to. */
const COMMANDS: Record<string, (request: Request, agent: string) => Promise<Response>> = {
  decide: (request, agent) => handleChatDecision(request, agent, after),
  stop: (request, agent) => handleStop(request, { agent }),
  steer: (request, agent) => handleSteer(request, { agent }),
  queue: (request, agent) => handleQueue(request, { agent }, after),
  state: (request, agent) => handleStateWrite(request, agent),
  undo: (request, agent) => handleUndo(request, { agent }, after),
  fork: (request, agent) => handleFork(request, { agent }, after),
  attachments: (request, agent) => handleUploadAttachment(request, agent),
};

/** What an optional catch-all route (`[[...command]]`) is given: the segments after the mount point, if any. */
interface RouteContext {
  params: Promise<{ command?: string[] }>;
}

/**
 * The route handlers of one agent. It must be listed in server/agents/index.ts: a durable thread
 * is carried on by its agent's name — after a restart, by a timer, from an emailed link — and only
 * a listed agent is found by it.
 */
export function agentRoute(agent: DeepAgent) {
  if (findAgent(agent.name) === undefined) {
    throw new Error(
      `agentRoute(${agent.name}): list the agent in server/agents/index.ts first. A durable thread is carried on by its agent's name (recovery, timers, approval links), and only a listed agent is found by it.`,
    );
  }
  const segments = async (context?: RouteContext) => (await context?.params)?.command ?? [];
  return {
    async GET(request: Request, context?: RouteContext): Promise<Response> {
      if ((await segments(context)).length > 0) return unknownEndpoint(request, undefined, jsonError);
      return handleAgUiThread(request, agent.name);
    },
    async POST(request: Request, context?: RouteContext): Promise<Response> {
      const command = await segments(context);
      if (command.length === 0) return handleAgUiRun(request, agent.name, after);
      const handler = command.length === 1 ? COMMANDS[command[0]!] : undefined;
      return handler ? handler(request, agent.name) : unknownEndpoint(request, undefined, jsonError);
    },
  };
}
