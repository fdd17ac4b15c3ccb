// A stateless turn (no session key): the request carries the whole conversation, nothing is
// kept. It runs on the same loop over a throwaway in-memory log seeded with that history.
import { randomUUID } from 'node:crypto';
import type { DeepAgent } from '../../authoring';
import { createMemoryStore } from '../../store/memory-store';
import type { RunSource, SessionEvent } from '../../store/events';
import type { ChatMessage } from '../../store/messages';
import { Refusal } from '../errors';
import { checkMessageText } from '../session';
import type { ClientTool } from '../tools';
import { startRunWithQueue } from './start-run';
import type { StartedRun } from './run-request';

/** The events that put a client-supplied history into a log, as if it had happened there. */
function historyEvents(history: ChatMessage[]): SessionEvent[] {
  return history.map((message): SessionEvent => {
    switch (message.role) {
      case 'assistant':
        return { type: 'assistant_step', message, finishReason: 'history' };
      case 'tool':
        return { type: 'tool_result', message, output: message.content };
      default:
        return { type: 'message_added', message };
    }
  });
}

/** What a stateless request carries that only a durable thread could take. */
export interface ThreadOnlyInput {
  /** The request's messages end with a tool result, to go on from (an AG-UI frontend tool's). */
  toolResult?: boolean;
  /** Shared state to seed. */
  state?: boolean;
  /** Decisions on interrupts (AG-UI `resume`). */
  decisions?: boolean;
  retry?: boolean;
}

/**
 * A stateless run has no thread to resume or to write state into (docs/internals/wires.md,
 * "Stateless AG-UI runs"): a tool result to go on from, seeded state, a decision or a retry is
 * refused, naming what needs a thread; the rest of the turn runs as any stateless one.
 */
export function refuseThreadOnlyInput(input: ThreadOnlyInput): void {
  const needs = (['toolResult', 'state', 'decisions', 'retry'] as const).filter((what) => input[what]);
  if (needs.length === 0) return;
  const what = { toolResult: 'a tool result to go on from', state: 'shared state to seed', decisions: 'a decision (resume)', retry: 'a retry' }[needs[0]!];
  throw new Refusal(
    'thread_required',
    `A stateless run (no threadId) has nothing to resume against, so it cannot take ${what}: send the thread's threadId (a durable thread).`,
    { needs },
  );
}

export async function startStatelessRun(options: {
  agent: DeepAgent;
  ownerId: string;
  source: RunSource;
  history: ChatMessage[];
  clientTools?: ClientTool[];
  signal?: AbortSignal;
  /** The model the caller chose, one of the agent's (docs/models.md, "Choosing a model"). */
  model?: string;
  /** What the caller should do to get a turn that can wait for a person (the chat wires name their session header). */
  durableHint?: string;
}): Promise<StartedRun> {
  // The client's history is its input: each message's text is held to the same limit as a durable
  // thread's new ones (docs/security.md, "What a request may carry"), but the model's own replies.
  for (const message of options.history) if (message.role !== 'assistant') checkMessageText(message.content);
  const store = createMemoryStore();
  const sessionId = `stateless_${randomUUID()}`;
  await store.ensureSession({ id: sessionId, ownerId: options.ownerId, agent: options.agent.name });
  const events = historyEvents(options.history);
  if (events.length > 0) await store.append(sessionId, 0, events, { status: 'idle' });
  return startRunWithQueue({
    agent: options.agent,
    store,
    sessionId,
    ownerId: options.ownerId,
    durable: false,
    source: options.source,
    messages: [],
    clientTools: options.clientTools,
    signal: options.signal,
    durableHint: options.durableHint,
    ...(options.model !== undefined ? { model: options.model } : {}),
  });
}
