// The tools a model step sees, and how the runtime runs a backend tool call.
import { asSchema, jsonSchema, tool, type JSONSchema7, type ModelMessage, type Schema, type Tool, type ToolSet } from 'ai';
import { deepClone } from 'fast-json-patch';
import type { DeepAgent } from '../../authoring';
import { builtinTools, DELEGATION_TOOL } from './builtins';
import { crashPoint } from '../common';
import { idempotencyKey, runWithHandlerContext, type HandlerContext, type ToolApproval } from './handler-context';
import type { JsonObject, ToolCall } from '../../store/messages';
import { errorMessage, logFailure, Refusal } from '../errors';
import { ToolError } from './tool-error';
import { InputRequired, runWithInputAnswers, type InputAnswer, type InputRequest } from './request-input';
import { stopGraceMs } from './tool-limits';
import { mcpTools } from './mcp-tools';

/** A tool the client runs (AG-UI `RunAgentInput.tools`, OpenAI/Anthropic request tools). */
export interface ClientTool {
  name: string;
  description?: string;
  parameters?: JSONSchema7;
}

export type ToolKind = 'backend' | 'client' | 'delegate' | 'unknown';

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Client tools may be offered under a name that is a tool name (as the model APIs define one),
 * that is not a name every object has ("constructor", "__proto__"), and not twice. Refused with
 * `invalid_tool` (400), naming where: `tools[2]`. With `exclusive`, not one of the agent's own
 * tools either (the chat wires). An AG-UI client may declare one of the agent's tools — TanStack
 * AI's client does, to render and approve it — and the agent's own stands.
 */
export function checkClientTools(
  agent: DeepAgent,
  tools: readonly ClientTool[],
  options: { where?: (index: number) => string; exclusive?: boolean } = {},
): void {
  const where = options.where ?? ((index: number) => `tools[${index}]`);
  const seen = new Set<string>();
  tools.forEach((tool, index) => {
    const name = tool.name;
    const problem =
      typeof name !== 'string' || !TOOL_NAME.test(name)
        ? `${JSON.stringify(name)} is not a tool name: use 1 to 64 letters, digits, "_" or "-".`
        : name in Object.prototype
          ? `"${name}" is a reserved name; give the client tool another name.`
          : options.exclusive && toolKind(agent, [], name) !== 'unknown'
            ? `"${name}" is a tool of agent "${agent.name}" itself; give the client tool another name.`
            : seen.has(name)
              ? `the tool name "${name}" appears twice.`
              : undefined;
    if (problem) throw new Refusal('invalid_tool', `${where(index)}: ${problem}`, { param: where(index) });
    seen.add(name);
  });
}

/**
 * Backend tools of the agent: built-ins, its MCP servers' tools as last listed (mcp-tools.ts;
 * docs/mcp.md), and its own, which win a name they share.
 */
export function agentTools(agent: DeepAgent): ToolSet {
  return { ...builtinTools(agent), ...mcpTools(agent), ...agent.tools };
}

export function toolKind(agent: DeepAgent, clientTools: ClientTool[], name: string): ToolKind {
  if (name === DELEGATION_TOOL && agent.subagents.length > 0) return 'delegate';
  if (Object.hasOwn(agent.tools, name) || Object.hasOwn(builtinTools(agent), name) || Object.hasOwn(mcpTools(agent), name)) return 'backend';
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
    tools[name] = tool({ description: definition.description, inputSchema: modelSchema(definition.inputSchema) });
  }
  return tools;
}

const modelSchemas = new WeakMap<object, Schema>();

/**
 * A tool's input schema as the AI SDK's Schema, made once per schema: the SDK wraps a zod schema
 * anew at every model step and converts it to JSON Schema again, about 1 ms a step for a
 * handful of tools (docs/internals/benchmarks.md, "Where the time went"). The wrapper keeps its JSON
 * Schema once made, and validates with the same zod schema.
 */
function modelSchema(inputSchema: Tool['inputSchema']): Tool['inputSchema'] {
  if (typeof inputSchema !== 'object' || inputSchema === null) return inputSchema;
  let schema = modelSchemas.get(inputSchema);
  if (!schema) modelSchemas.set(inputSchema, (schema = asSchema(inputSchema)));
  return schema;
}

/** Why a call was cut off: the run was stopped, or the call ran past its timeout. */
type ToolAbort = 'stopped' | 'timeout';

export type ToolOutcome =
  | { ok: true; output: unknown; content: string; state: JsonObject }
  /** `abort` is set when the call was cut off rather than failing by itself. */
  | { ok: false; error: string; content: string; state: JsonObject; abort?: ToolAbort }
  /** The tool called requestInput() for an answer it does not have yet. */
  | { ok: false; inputRequired: InputRequest; content: string; state: JsonObject };

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
 *
 * The call has its own signal (handlerContext().signal and the SDK's abortSignal): it aborts
 * with reason 'timeout' after `timeoutMs`, or 'stopped' when the run's signal aborts. Either
 * way the tool then has stopGraceMs() to settle; a result it returns in that time stands,
 * since its side effects are done (docs/hitl.md, Timeouts).
 */
export async function executeTool(options: {
  definition: Tool;
  call: ToolCall;
  context: Omit<HandlerContext, 'state' | 'event' | 'idempotencyKey'> & { payload?: unknown; approval?: ToolApproval };
  state: JsonObject;
  history: ModelMessage[];
  /** Answers to the tool's earlier questions, in order. */
  inputAnswers?: InputAnswer[];
  /** Cut the call off after this long (see toolTimeoutMs); no timeout when omitted. */
  timeoutMs?: number;
  /** Each output of a tool that streams them (an async iterable execute), as it comes. */
  onProgress?: (output: unknown) => Promise<void>;
  /** The key its effect is made once under, when not the session's and the call's: an undo's is its effect's (docs/time-travel.md). */
  idempotencyKey?: string;
}): Promise<ToolOutcome> {
  const { definition, call, context } = options;
  const draft = deepClone(options.state) as JsonObject;
  const fail = (error: string, abort?: ToolAbort): ToolOutcome => ({ ok: false, error, content: error, state: options.state, ...(abort ? { abort } : {}) });
  const cutOff = (abort: ToolAbort) =>
    fail(
      abort === 'timeout' ? `Tool "${call.name}" timed out after ${seconds(options.timeoutMs ?? 0)}s.` : 'The run was stopped before the tool finished.',
      abort,
    );
  if (!definition.execute) return fail(`Tool "${call.name}" has no execute function.`);
  const input = await validateToolInput(definition, call.input);
  if (!input.ok) return fail(`Invalid input for ${call.name}: ${input.error}`);
  // A stopped run starts no new side effects; the call is answered as one that never started,
  // like the calls a stopped run leaves open (docs/hitl.md, "Stopping a run").
  if (context.signal.aborted) return fail('Not run: the run was stopped before this call started.', 'stopped');

  const controller = new AbortController();
  const handler: HandlerContext = {
    ...context,
    signal: controller.signal,
    event: {
      id: call.id,
      toolCallId: call.id,
      toolName: call.name,
      input: input.value,
      payload: context.payload,
      ...(context.approval ? { approval: context.approval } : {}),
    },
    idempotencyKey: options.idempotencyKey ?? idempotencyKey(context.session.id, call.id),
    state: draft,
  };
  const work = runWithHandlerContext(handler, () =>
    runWithInputAnswers(options.inputAnswers ?? [], async () => {
      const result = definition.execute!(
        input.value as never,
        {
          toolCallId: call.id,
          messages: options.history,
          abortSignal: controller.signal,
        } as never,
      );
      crashPoint('tool-running');
      // A tool may stream preliminary outputs (an async iterable); the last one is its result.
      if (result && typeof result === 'object' && Symbol.asyncIterator in (result as object)) {
        let last: unknown;
        for await (const chunk of result as AsyncIterable<unknown>) {
          last = chunk;
          if (!controller.signal.aborted) await options.onProgress?.(chunk);
        }
        return last;
      }
      return await result;
    }),
  );
  const ending = await withinLimits(work, controller, context.signal, options.timeoutMs);
  if (ending.status === 'fulfilled') return { ok: true, output: ending.value, content: stringifyOutput(ending.value), state: draft };
  if (ending.status === 'cut') return cutOff(ending.abort);
  if (ending.reason instanceof InputRequired) return { ok: false, inputRequired: ending.reason.request, content: ending.reason.message, state: options.state };
  // A ToolError is the tool's word to the model and the person; anything else stays in the server's log.
  if (ToolError.is(ending.reason)) return fail(ending.reason.message);
  const reference = logFailure(`tool ${call.name} (call ${call.id}, session ${context.session.id}) threw`, ending.reason);
  return fail(`Tool "${call.name}" failed (tool_error, ref ${reference}; the details are in the server's log).`);
}

/** setTimeout fires at once past this (2^31 - 1 ms, about 24.8 days), so longer waits are capped. */
const MAX_TIMER_MS = 2_147_483_647;

type Ending<T> = PromiseFulfilledResult<T> | PromiseRejectedResult | { status: 'cut'; abort: ToolAbort };

/**
 * Waits for `work`, but no longer than its timeout or the run's stop plus the grace period.
 * A call that resolves within the grace keeps its value; one that rejects then (an AbortError,
 * most likely) or does not settle at all is 'cut', and whatever it does later is ignored (its
 * rejection is handled here, never unhandled).
 */
async function withinLimits<T>(work: Promise<T>, controller: AbortController, runSignal: AbortSignal, timeoutMs: number | undefined): Promise<Ending<T>> {
  const settled = work.then(
    (value): PromiseFulfilledResult<T> => ({ status: 'fulfilled', value }),
    (reason: unknown): PromiseRejectedResult => ({ status: 'rejected', reason }),
  );
  const timers: ReturnType<typeof setTimeout>[] = [];
  const wait = (ms: number) => new Promise<void>((resolve) => timers.push(setTimeout(resolve, Math.min(ms, MAX_TIMER_MS))));
  let onStop = () => {};
  const cut = new Promise<ToolAbort>((resolve) => {
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) void wait(timeoutMs).then(() => resolve('timeout'));
    onStop = () => resolve('stopped');
    runSignal.addEventListener('abort', onStop, { once: true });
  });
  try {
    const first = await Promise.race([settled, cut]);
    if (typeof first === 'object') return first;
    controller.abort(first);
    const last = await Promise.race([settled, wait(stopGraceMs()).then(() => undefined)]);
    return last?.status === 'fulfilled' ? last : { status: 'cut', abort: first };
  } finally {
    // Nothing of a finished call may keep the process alive or hold on to the run's signal.
    for (const timer of timers) clearTimeout(timer);
    runSignal.removeEventListener('abort', onStop);
  }
}

/** 120000 → "120", 1500 → "1.5", 50 → "0.05". */
function seconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

function stringifyOutput(output: unknown): string {
  if (typeof output === 'string') return output;
  return JSON.stringify(output ?? null);
}
