// The frontend-tool loop (docs/internals/wires.md, "Frontend tools"): a run that ends with calls to tools
// the browser runs is answered here — each call's handler runs, its result (or error) becomes a
// `role: 'tool'` message — and the store runs again with the answers, until a run leaves no
// call open. A round limit guards against a model that never stops calling.
import { randomUUID, type Message, type Tool, type ToolCall } from '@ag-ui/client';
import { toAgentError } from './agent-error';
import type { ThreadHttpAgent } from './thread-http-agent';

/** A tool the browser runs: an AG-UI Tool definition plus the code that answers it. */
export interface FrontendTool<Args = any> extends Tool {
  handler: (args: Args, context: { toolCallId: string; signal: AbortSignal }) => unknown | Promise<unknown>;
}

/** What the loop needs of the thread it answers on. */
export interface ToolRounds {
  /** The thread's messages (where the calls are); the answers are added to them. */
  readonly agent: Pick<ThreadHttpAgent, 'messages' | 'addMessages'>;
  /** Runs again with the answers; resolves with the calls that run left open. */
  runAgain(): Promise<string[]>;
  /** The user stopped: no further round. */
  stopped(): boolean;
}

export class FrontendToolLoop {
  /** Aborts running handlers on stop(). */
  private abortController: AbortController | null = null;

  constructor(
    private tools: FrontendTool[],
    /** Follow-up runs answering frontend tools before the loop gives up. */
    private readonly maxRounds: number,
  ) {}

  /** Frontend tools may change between renders; the next run declares the current ones. */
  setTools(tools: FrontendTool[]): void {
    this.tools = tools;
  }

  /** The tools as a run declares them: definitions without their handlers. */
  declarations(): Tool[] {
    return this.tools.map(({ handler: _handler, ...definition }) => definition);
  }

  abort(): void {
    this.abortController?.abort();
  }

  /** Answers the calls a run left open, round after round, until none is left or the user stops. */
  async run(pending: string[], rounds: ToolRounds): Promise<void> {
    for (let round = 1; pending.length > 0 && !rounds.stopped(); round++) {
      if (round > this.maxRounds) {
        throw Object.assign(new Error(`Stopped after ${this.maxRounds} rounds of frontend tools.`), { code: 'too_many_tool_rounds' });
      }
      rounds.agent.addMessages(await this.answer(pending, rounds.agent.messages));
      if (rounds.stopped()) return;
      pending = await rounds.runAgain();
    }
  }

  private async answer(toolCallIds: string[], messages: readonly Message[]): Promise<Message[]> {
    this.abortController = new AbortController();
    const { signal } = this.abortController;
    try {
      const answers: Message[] = [];
      for (const toolCallId of toolCallIds) {
        const call = findToolCall(messages, toolCallId);
        const tool = call && this.tools.find((candidate) => candidate.name === call.function.name);
        if (!call || !tool) {
          answers.push(toolResultMessage(toolCallId, { error: `No frontend tool in this page answers ${call?.function.name ?? toolCallId}.` }));
          continue;
        }
        try {
          const args = call.function.arguments ? JSON.parse(call.function.arguments) : {};
          answers.push(toolResultMessage(toolCallId, { result: await tool.handler(args, { toolCallId, signal }) }));
        } catch (error) {
          answers.push(toolResultMessage(toolCallId, { error: toAgentError(error).message }));
        }
      }
      return answers;
    } finally {
      this.abortController = null;
    }
  }
}

export function findToolCall(messages: readonly Message[], toolCallId: string): ToolCall | undefined {
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const call = message.toolCalls?.find((candidate) => candidate.id === toolCallId);
    if (call) return call;
  }
  return undefined;
}

/** A tool message answering `toolCallId`; results that are not text travel as JSON. */
function toolResultMessage(toolCallId: string, answer: { result: unknown } | { error: string }): Message {
  if ('error' in answer) {
    return { id: randomUUID(), role: 'tool', toolCallId, content: answer.error, error: answer.error };
  }
  const content = typeof answer.result === 'string' ? answer.result : JSON.stringify(answer.result ?? null);
  return { id: randomUUID(), role: 'tool', toolCallId, content };
}
