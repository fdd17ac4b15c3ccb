// The tools a model step sees, and how the runtime runs a backend tool call.
import { asSchema, jsonSchema, tool, type JSONSchema7, type ModelMessage, type Tool, type ToolSet } from 'ai';
import { deepClone } from 'fast-json-patch';
import type { DeepAgent } from '../define';
import { builtinTools, DELEGATION_TOOL } from './builtins';
import { runWithHandlerContext, type HandlerContext } from './context';
import type { JsonObject, ToolCall } from './events';
import { errorMessage } from './errors';
import { InputRequired, runWithInputAnswers } from './request-input';

/** A tool the client runs (AG-UI `RunAgentInput.tools`, OpenAI/Anthropic request tools). */
export interface ClientTool {
  name: string;
  description?: string;
  parameters?: JSONSchema7;
}

export type ToolKind = 'backend' | 'client' | 'delegate' | 'unknown';

/** Backend tools of the agent, built-ins included. */
export function agentTools(agent: DeepAgent): ToolSet {
  return { ...builtinTools(agent), ...agent.tools };
}

export function toolKind(agent: DeepAgent, clientTools: ClientTool[], name: string): ToolKind {
  if (name === DELEGATION_TOOL && agent.subagents.length > 0) return 'delegate';
  if (name in agent.tools || name in builtinTools(agent)) return 'backend';
  if (clientTools.some((clientTool) => clientTool.name === name)) return 'client';
  return 'unknown';
}

/**
 * The tool set handed to the model. No tool carries `execute`: the model step only
 * proposes calls; the runtime decides (policies, approvals) and runs them.
 */
export function modelTools(agent: DeepAgent, clientTools: ClientTool[]): ToolSet {
  const tools: ToolSet = {};
  for (const clientTool of clientTools) {
    tools[clientTool.name] = tool({
      description: clientTool.description,
      inputSchema: jsonSchema(clientTool.parameters ?? { type: 'object', properties: {} }),
    });
  }
  for (const [name, definition] of Object.entries(agentTools(agent))) {
    tools[name] = tool({ description: definition.description, inputSchema: definition.inputSchema });
  }
  return tools;
}

export type ToolOutcome =
  | { ok: true; output: unknown; content: string; state: JsonObject }
  | { ok: false; error: string; content: string; state: JsonObject }
  /** The tool called requestInput() for an answer it does not have yet. */
  | { ok: false; inputRequired: { message: string; responseSchema: JsonObject }; content: string; state: JsonObject };

/** Validates the input against the tool's schema; returns the parsed value or an error message. */
export async function validateToolInput(definition: Tool, input: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  const schema = asSchema(definition.inputSchema);
  if (!schema.validate) return { ok: true, value: input };
  const result = await schema.validate(input);
  return result.success ? { ok: true, value: result.value } : { ok: false, error: errorMessage(result.error) };
}

/**
 * Runs one backend tool call inside its handler context. Never throws: a failing tool
 * becomes an error result the model can read. The returned state is the tool's draft.
 */
export async function executeTool(options: {
  definition: Tool;
  call: ToolCall;
  context: Omit<HandlerContext, 'state' | 'event'> & { payload?: unknown };
  state: JsonObject;
  history: ModelMessage[];
  /** Answers to the tool's earlier requestInput() calls, in order. */
  inputAnswers?: unknown[];
}): Promise<ToolOutcome> {
  const { definition, call, context } = options;
  const draft = deepClone(options.state) as JsonObject;
  const fail = (error: string): ToolOutcome => ({ ok: false, error, content: error, state: options.state });
  if (!definition.execute) return fail(`Tool "${call.name}" has no execute function.`);
  const input = await validateToolInput(definition, call.input);
  if (!input.ok) return fail(`Invalid input for ${call.name}: ${input.error}`);
  try {
    const handler: HandlerContext = {
      ...context,
      event: { toolCallId: call.id, toolName: call.name, input: input.value, payload: context.payload },
      state: draft,
    };
    const output = await runWithHandlerContext(handler, () => runWithInputAnswers(options.inputAnswers ?? [], async () => {
      const result = definition.execute!(input.value as never, {
        toolCallId: call.id,
        messages: options.history,
        abortSignal: context.signal,
      } as never);
      // A tool may stream preliminary outputs (an async iterable); the last one is its result.
      if (result && typeof result === 'object' && Symbol.asyncIterator in (result as object)) {
        let last: unknown;
        for await (const chunk of result as AsyncIterable<unknown>) last = chunk;
        return last;
      }
      return await result;
    }));
    if (context.signal.aborted) return fail('The run was stopped before the tool finished.');
    return { ok: true, output, content: stringifyOutput(output), state: draft };
  } catch (error) {
    if (error instanceof InputRequired) return { ok: false, inputRequired: error.request, content: error.message, state: options.state };
    return fail(context.signal.aborted ? 'The run was stopped before the tool finished.' : errorMessage(error));
  }
}

export function stringifyOutput(output: unknown): string {
  if (typeof output === 'string') return output;
  return JSON.stringify(output ?? null);
}
