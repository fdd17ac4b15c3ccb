// defineDeepAgent and the agent types (README, "Add an agent"). An agent is plain data plus ordinary
// AI SDK tools; the runtime (server/runtime) gives it durability, approvals and state.
import type { JSONSchema7, LanguageModel, ToolSet } from 'ai';
import type { z } from 'zod';
import { notifyRouting, type NotifyConfig, type NotifyRouting } from './agent-notify';
import { checkMcpServers, namesMcpTool, type McpServerSpec } from './mcp-servers';
import { modelList, type ModelOption, type ModelSpec } from './model-list';
import { checkOfflinePhrases, type OfflineConfig, type OfflinePhrase } from './offline-phrases';
import { readableName } from './readable-name';
import type { SessionCommand } from './session-command';
import { checkDuration, checkToolApproval, type ToolApprovalSpec } from './tool-approval';
import type { ChatMessage, JsonObject } from '../store/messages';
import type { EventStore } from '../store/types';

type InputOf<T> = T extends { inputSchema: infer S } ? (S extends z.ZodType ? z.infer<S> : any) : any;

/** A tool's dry run: what it would return for this input, with no side effect (docs/replay.md). */
export type DryRun<Input = any> = (input: Input) => unknown;
type DryRunMap<TOOLS extends ToolSet> = { [K in keyof TOOLS]?: DryRun<InputOf<TOOLS[K]>> };

/**
 * A tool's compensation (docs/time-travel.md, "Undoing a dropped effect"): from a call that ran and
 * what it returned, the call of another of the agent's tools that undoes it. It runs as a call
 * like any other, through that tool's own approval.
 */
export type Undo<Input = any> = (call: { input: Input; output: unknown }) => { tool: string; input: unknown };
type UndoMap<TOOLS extends ToolSet> = { [K in keyof TOOLS]?: Undo<InputOf<TOOLS[K]>> };

/** A shared-state key a client may write: a zod schema, or a JSON Schema for it. */
export type EditableStateSpec = z.ZodType | JSONSchema7;

/**
 * A policy per tool: the agent's own by name, an MCP server's by its full name (`docs_search`)
 * or for all of that server's tools at once (`'docs_*'`; the full name wins; docs/mcp.md).
 */
export type ToolApprovalMap<TOOLS extends ToolSet> = { [K in keyof TOOLS]?: ToolApprovalSpec<InputOf<TOOLS[K]>> } & {
  [mcpTool: `${string}_${string}`]: ToolApprovalSpec | undefined;
};

/** What dynamic instructions read, at each model step. */
export interface InstructionsContext {
  /** The session's shared state as it is at this step (a copy: changing it changes nothing). */
  state: JsonObject;
  /** As `handlerContext().session` names it: `id` is the stored id, unique across owners. */
  session: { id: string; agent: string; ownerId: string; durable: boolean };
}

/** Instructions worked out at each model step, e.g. from what the person answered into the state. */
export type InstructionsFunction = (context: InstructionsContext) => string | PromiseLike<string>;

export interface DeepAgentConfig<TOOLS extends ToolSet = ToolSet> {
  /** URL-safe and unique: the wires find the agent by it. */
  name: string;
  /**
   * What a person calls the agent ("Support"): the web app's title for it. One line of at most
   * 40 characters. Default: the name in words, capitalized ("order-desk" → "Order desk").
   */
  displayName?: string;
  description?: string;
  /**
   * Prompts a newcomer can start with, shown as chips in an empty chat (whatever the model). At
   * most 6, each one line of at most 120 characters. Default: the examples of `offline.phrases`
   * (the first 6), so every chip works offline too.
   */
  suggestions?: string[];
  /**
   * What the built-in scripted model understands for this agent when no model key is set: plain
   * sentences, each making one call of its tools, e.g. `{ example: 'invoice cust_7 for 120',
   * pattern: /^invoice\s+(\S+)\s+for\s+\$?(\d+(?:\.\d+)?)$/i, call: 'sendInvoice', input: (m) => ({
   * customerId: m[1], amount: Number(m[2]) }) }` (server/authoring/offline-phrases.ts; README, "Add an agent").
   */
  offline?: OfflineConfig;
  /** A `provider/model` string (see server/models/resolve.ts) or an AI SDK model: the default of `models`. */
  model: string | LanguageModel;
  /**
   * The models a person may choose from, per thread (docs/models.md, "Choosing a model"): up to 8
   * model strings, or `{id, label}`, no repeats; `model` is one of them (or leads the list). With
   * one model the chat shows no picker.
   */
  models?: readonly ModelSpec[];
  /**
   * The system prompt: a string, or a function of the session's state evaluated before every
   * model step (README, "Add an agent"). Default: a helpful assistant, with the description.
   */
  instructions?: string | InstructionsFunction;
  tools?: TOOLS;
  toolApproval?: ToolApprovalMap<TOOLS>;
  /**
   * experimental-a2's spelling of `toolApproval` (docs/seed-names.md): the same map under
   * `harness.generation`. Give one or the other.
   */
  harness?: { type: 'ai-sdk'; generation?: { toolApproval?: ToolApprovalMap<TOOLS> } };
  /** The only state keys a client may write. */
  editableState?: Record<string, EditableStateSpec>;
  initialState?: JsonObject;
  subagents?: DeepAgent[];
  /**
   * A stateless turn cannot pause: run approval-gated tools anyway ('run', the default) or refuse
   * them. A tool kept for key holders (`approvers: 'key-holders'`) is refused either way
   * (docs/internals/wires.md, "Stateless turns").
   */
  statelessApproval?: 'run' | 'deny';
  /** Model steps per run before the runtime stops the loop. */
  maxSteps?: number;
  /**
   * The most tokens one model step may be sent of the conversation before its older turns are
   * compacted (summarised by the agent's model; docs/models.md, "Long threads"). A whole number,
   * at least 100. Default: none — the whole history goes to the model, as a provider's context
   * window differs by model and a summary is a model call of its own.
   */
  contextBudget?: number;
  /**
   * How many more times a model call the provider failed (a 429, a 5xx, Anthropic's 529 overloaded,
   * a dropped connection) is tried before the turn fails with `model_error`: the AI SDK's
   * maxRetries, which waits the provider's retry-after or a growing delay (README, "Models").
   * A whole number from 0 to 10; default 2.
   */
  maxRetries?: number;
  /**
   * Models tried in order when the agent's own model fails in a way a Retry may fix (a 429, a
   * 5xx, a 529, a dropped connection, a step timeout) after its retries and before anything
   * streamed: `provider/model` strings or AI SDK models. On the Vercel AI Gateway its own
   * fallback list (`providerOptions.gateway.models`) does this (docs/models.md, "Fallback models").
   */
  fallbackModels?: (string | LanguageModel)[];
  /**
   * How long one model call (its retries included) may take before it is aborted and the turn
   * fails with a retryable `model_error`: '60s', '2m' or milliseconds. Default:
   * STACKBONE_STEP_TIMEOUT_MS, else 2 minutes (docs/models.md, "Timeouts").
   */
  stepTimeout?: string | number;
  /**
   * How long one tool call may run before its signal aborts ('timeout') and it is reported
   * as timed out: '30s', '2m' or milliseconds. Default: STACKBONE_TOOL_TIMEOUT_MS, else 2 minutes
   * (docs/hitl.md, Timeouts). Built-in tools use this too.
   */
  toolTimeout?: string | number;
  /** A different timeout for some of the agent's tools. */
  toolTimeouts?: Partial<Record<keyof TOOLS & string, string | number>>;
  /**
   * What a tool would return, without doing it: a function of the call's input that a replay
   * runs in the tool's place, inside the same handler context (so requestInput() still asks).
   * A tool without one is not run in a replay (docs/replay.md, "Dry runs").
   */
  dryRun?: DryRunMap<TOOLS>;
  /**
   * How to undo what a tool did, offered when a fork leaves one of its calls behind
   * (docs/time-travel.md, "Undoing a dropped effect"): `{ sendInvoice: ({ input }) => ({ tool:
   * 'voidInvoice', input: { invoiceId: input.invoiceId } }) }`.
   */
  undo?: UndoMap<TOOLS>;
  /**
   * The calls of one model step run concurrently (docs/turn-control.md, "Concurrent tools").
   * Calls in the same lane run one at a time, in the order the model made them:
   * `toolLane: 'tools'` puts every tool of the agent in one lane.
   */
  toolLane?: string;
  /** A lane for some tools only (e.g. `{sendInvoice: 'billing'}`); it overrides toolLane. */
  toolLanes?: Partial<Record<keyof TOOLS & string, string>>;
  /** MCP servers whose tools the agent uses as its own, gated by `toolApproval` like them (docs/mcp.md). */
  mcpServers?: McpServerSpec[];
  /**
   * Who is told when one of its calls waits for a decision, beside STACKBONE_NOTIFY_EMAIL and
   * STACKBONE_SLACK_WEBHOOK_URL: `{ email: 'desk@example.com', slack: process.env.BILLING_SLACK_URL,
   * tools: { sendInvoice: { email: 'finance@example.com' }, listInvoices: false } }`
   * (docs/approvals.md, "Notifications and one-click links").
   */
  notify?: NotifyConfig<keyof TOOLS & string>;
}

export interface DeepAgent<TOOLS extends ToolSet = ToolSet> extends Required<Pick<DeepAgentConfig<TOOLS>, 'name' | 'model' | 'instructions'>> {
  readonly kind: 'deep-agent';
  displayName: string;
  description: string;
  /** The models on offer, `model` among them (one entry unless `models` was given). */
  models: ModelOption[];
  tools: TOOLS;
  toolApproval: Partial<Record<string, ToolApprovalSpec>>;
  editableState: Record<string, EditableStateSpec>;
  initialState: JsonObject;
  subagents: DeepAgent[];
  statelessApproval: 'run' | 'deny';
  suggestions: string[];
  /** Its offline phrases, checked (server/authoring/offline-phrases.ts): what the scripted model answers to for it. */
  offline: { phrases: OfflinePhrase[] };
  maxSteps: number;
  maxRetries: number;
  contextBudget?: number;
  fallbackModels: (string | LanguageModel)[];
  stepTimeout?: string | number;
  toolTimeout?: string | number;
  toolTimeouts: Partial<Record<string, string | number>>;
  /** The tools' dry runs, by tool name (docs/replay.md, "Dry runs"). */
  dryRun: Partial<Record<string, DryRun>>;
  /** The tools' compensations, by tool name (docs/time-travel.md). */
  undo: Partial<Record<string, Undo>>;
  toolLane?: string;
  toolLanes: Partial<Record<string, string>>;
  mcpServers: McpServerSpec[];
  /** Who is told of its approvals beside the env's targets, checked (server/authoring/agent-notify.ts). */
  notify: NotifyRouting;
  /**
   * The session `sessionId` (the key its clients name it by) as trusted server code reaches it:
   * `append(...)` takes a turn on it (docs/turn-control.md, "Server append"). Name the owner
   * (`{ownerId}`) unless the server is in open dev mode, where every session is the local owner's.
   */
  session: (sessionId: string, options?: ServerSessionOptions) => ServerSession;
}

/** What an append started: its run on the session (the runtime's StartedRun has more). */
export interface AppendedRun {
  sessionId: string;
  runId: string;
  /** Settles when the run has written its last event (keep it alive on a serverless host). */
  done: Promise<void>;
}

export interface ServerSession {
  /**
   * Appends messages and runs the agent on them. The run belongs to the session and goes on
   * without a reader (keep `done` alive on a serverless host). While another run holds the
   * session or a decision is pending, the messages are queued and go out when the session falls
   * idle. A message id the session has is not added again: when none is new (a webhook its
   * sender delivered twice), nothing runs and the answer is null.
   *
   * Commands built by `inputs` (a decision, a retry, a stop, guidance, a queue change) go in
   * the same call, carried out in order, each as its own route does it (session-command.ts).
   * The answer is the last run the append started — by messages, a decision that completed its
   * batch, a retry, a message sent now — or null when it started none.
   */
  append: (...items: Array<ChatMessage | SessionCommand>) => Promise<AppendedRun | null>;
}

export interface ServerSessionOptions {
  /** Whose session: the owner its clients act as. Only open dev mode may leave it out. */
  ownerId?: string;
  store?: EventStore;
}

/** How the runtime finds an agent by its name (the registry in server/agents/ is one). */
export type FindAgent = (name: string) => DeepAgent | undefined;

const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function defineDeepAgent<TOOLS extends ToolSet>(config: DeepAgentConfig<TOOLS>): DeepAgent<TOOLS> {
  if (!NAME.test(config.name)) {
    throw new Error(`Agent name "${config.name}" must be URL-safe: lower-case letters, digits, "-" or "_".`);
  }
  const tools = (config.tools ?? {}) as TOOLS;
  const mcpServers = checkMcpServers(config.name, config.mcpServers);
  const toolApproval = approvalMap(config);
  for (const [toolName, spec] of Object.entries(toolApproval)) {
    if (!Object.hasOwn(tools, toolName) && !namesMcpTool(mcpServers, toolName)) {
      throw new Error(
        `Agent "${config.name}": toolApproval names "${toolName}", which is not one of its tools (nor "<server>_<tool>" or "<server>_*" of its mcpServers).`,
      );
    }
    checkToolApproval(config.name, toolName, spec as ToolApprovalSpec | undefined);
  }
  for (const [toolName, definition] of Object.entries(tools)) {
    const needsApproval: unknown = (definition as { needsApproval?: unknown }).needsApproval;
    if (needsApproval !== undefined && typeof needsApproval !== 'boolean' && typeof needsApproval !== 'function') {
      throw new Error(`Agent "${config.name}": "${toolName}".needsApproval must be a boolean or a function of the input.`);
    }
  }
  const toolTimeouts: Partial<Record<string, string | number>> = config.toolTimeouts ?? {};
  for (const [toolName, timeout] of Object.entries(toolTimeouts)) {
    if (!Object.hasOwn(tools, toolName)) throw new Error(`Agent "${config.name}": toolTimeouts names "${toolName}", which is not one of its tools.`);
    checkDuration(config.name, `toolTimeouts.${toolName}`, timeout);
  }
  checkDuration(config.name, 'toolTimeout', config.toolTimeout);
  const dryRun: Partial<Record<string, DryRun>> = config.dryRun ?? {};
  for (const [toolName, run] of Object.entries(dryRun)) {
    if (!Object.hasOwn(tools, toolName)) throw new Error(`Agent "${config.name}": dryRun names "${toolName}", which is not one of its tools.`);
    if (typeof run !== 'function') throw new Error(`Agent "${config.name}": dryRun.${toolName} must be a function of the tool's input.`);
  }
  const undo: Partial<Record<string, Undo>> = config.undo ?? {};
  for (const [toolName, compensate] of Object.entries(undo)) {
    if (!Object.hasOwn(tools, toolName)) throw new Error(`Agent "${config.name}": undo names "${toolName}", which is not one of its tools.`);
    if (typeof compensate !== 'function') throw new Error(`Agent "${config.name}": undo.${toolName} must be a function of the call ({input, output}).`);
  }
  checkDuration(config.name, 'stepTimeout', config.stepTimeout);
  const fallbackModels = config.fallbackModels ?? [];
  if (
    !Array.isArray(fallbackModels) ||
    fallbackModels.length > 5 ||
    fallbackModels.some((model) => (typeof model === 'string' ? !/^[^/\s]+\/\S+$/.test(model) : typeof model !== 'object' || model === null))
  ) {
    throw new Error(`Agent "${config.name}": fallbackModels is a list of at most 5 models, each a "provider/model" string or an AI SDK model.`);
  }
  const toolLanes: Partial<Record<string, string>> = config.toolLanes ?? {};
  for (const [toolName, lane] of Object.entries(toolLanes)) {
    if (!Object.hasOwn(tools, toolName)) throw new Error(`Agent "${config.name}": toolLanes names "${toolName}", which is not one of its tools.`);
    if (typeof lane !== 'string' || !lane) throw new Error(`Agent "${config.name}": toolLanes.${toolName} must be a lane name.`);
  }
  const phrases = checkOfflinePhrases(config.name, config.offline, (name) => Object.hasOwn(tools, name) || namesMcpTool(mcpServers, name));
  const suggestions = config.suggestions ?? phrases.slice(0, 6).map((phrase) => phrase.example);
  if (
    !Array.isArray(suggestions) ||
    suggestions.length > 6 ||
    suggestions.some((text) => typeof text !== 'string' || !text.trim() || text.length > 120 || /\n/.test(text))
  ) {
    throw new Error(`Agent "${config.name}": suggestions are at most 6 prompts, each one line of 1 to 120 characters.`);
  }
  const displayName = config.displayName ?? readableName(config.name);
  if (typeof displayName !== 'string' || !displayName.trim() || displayName.length > 40 || /[\r\n]/.test(displayName)) {
    throw new Error(`Agent "${config.name}": displayName is one line of 1 to 40 characters.`);
  }
  const maxRetries = config.maxRetries ?? 2;
  if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 10) {
    throw new Error(`Agent "${config.name}": maxRetries is a whole number from 0 to 10, not ${JSON.stringify(maxRetries)}.`);
  }
  const { contextBudget } = config;
  if (contextBudget !== undefined && (!Number.isSafeInteger(contextBudget) || contextBudget < 100)) {
    throw new Error(`Agent "${config.name}": contextBudget is a whole number of tokens, at least 100, not ${JSON.stringify(contextBudget)}.`);
  }
  if (config.instructions !== undefined && typeof config.instructions !== 'string' && typeof config.instructions !== 'function') {
    throw new Error(`Agent "${config.name}": instructions must be a string or a function of the session's state.`);
  }
  // An MCP server's tools are known only once it answers: their names are not checked here.
  const notify = notifyRouting(config.name, config.notify as NotifyConfig | undefined, mcpServers.length ? undefined : Object.keys(tools));
  const models = modelList(config.name, config.model, config.models);
  const agent: DeepAgent<TOOLS> = {
    kind: 'deep-agent',
    name: config.name,
    displayName,
    description: config.description ?? '',
    model: config.model,
    models,
    instructions: config.instructions ?? defaultInstructions(config.description),
    tools,
    toolApproval: toolApproval as Partial<Record<string, ToolApprovalSpec>>,
    editableState: config.editableState ?? {},
    initialState: config.initialState ?? {},
    subagents: config.subagents ?? [],
    statelessApproval: config.statelessApproval ?? 'run',
    suggestions,
    offline: { phrases },
    maxSteps: config.maxSteps ?? 12,
    maxRetries,
    ...(contextBudget !== undefined ? { contextBudget } : {}),
    fallbackModels,
    ...(config.stepTimeout !== undefined ? { stepTimeout: config.stepTimeout } : {}),
    ...(config.toolTimeout !== undefined ? { toolTimeout: config.toolTimeout } : {}),
    toolTimeouts,
    dryRun,
    undo,
    ...(config.toolLane !== undefined ? { toolLane: config.toolLane } : {}),
    toolLanes,
    mcpServers,
    notify,
    session: (sessionId, options) => serverSession(agent, sessionId, options),
  };
  return agent;
}

function defaultInstructions(description: string | undefined): string {
  return `You are a helpful assistant.${description ? ` ${description}` : ''} Be brief.`;
}

/** toolApproval, under either of its names. */
function approvalMap<TOOLS extends ToolSet>(config: DeepAgentConfig<TOOLS>): ToolApprovalMap<TOOLS> {
  const { harness } = config;
  if (harness === undefined) return config.toolApproval ?? {};
  if (harness.type !== 'ai-sdk')
    throw new Error(`Agent "${config.name}": harness.type ${JSON.stringify(harness.type)} is not supported; the AI SDK ('ai-sdk') is the only harness.`);
  const seeded = harness.generation?.toolApproval;
  if (seeded && config.toolApproval) throw new Error(`Agent "${config.name}": give toolApproval or harness.generation.toolApproval, not both.`);
  return config.toolApproval ?? seeded ?? {};
}

/**
 * define.ts sits below the runtime, so it cannot call it: the runtime hands in how an agent's
 * session() appends when it loads (turn-control/server-session.ts). Any server code that runs an
 * agent has loaded it; a script that only defines one is told to import it.
 */
let openServerSession: ((agent: DeepAgent, sessionId: string, options?: ServerSessionOptions) => ServerSession) | undefined;

/** Called once by the runtime as it loads. */
export function provideServerSessions(open: NonNullable<typeof openServerSession>): void {
  openServerSession = open;
}

function serverSession(agent: DeepAgent, sessionId: string, options?: ServerSessionOptions): ServerSession {
  if (!openServerSession)
    throw new Error(
      `${agent.name}.session(...): the runtime is not loaded: import it (@/server/runtime; route handlers and agents' tools do) before appending.`,
    );
  return openServerSession(agent, sessionId, options);
}
