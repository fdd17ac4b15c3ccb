// defineDeepAgent and the agent types (README, "Add an agent"). An agent is plain data plus ordinary
// AI SDK tools; the runtime (server/runtime) gives it durability, approvals and state.
import type { JSONSchema7, LanguageModel, ToolSet } from 'ai';
import type { z } from 'zod';
import { notifyRouting, type NotifyConfig, type NotifyRouting } from './agent-notify';
import { parseDuration } from './duration';
import { modelList, type ModelOption, type ModelSpec } from './model-list';
import { checkOfflinePhrases, type OfflineConfig, type OfflinePhrase } from './offline-phrases';
import { readableName } from './readable-name';
import type { ChatMessage, GrantScope, JsonObject } from '../store/events';
import type { EventStore } from '../store/types';

/**
 * What a tool call needs before it may run: nothing ('approved'), a person's decision
 * ('user-approval'), or it never runs ('denied': the model is told it is not allowed).
 */
export type ApprovalPolicy = 'user-approval' | 'approved' | 'denied';

/**
 * A policy may be a function of the input. It must be deterministic: it runs at the model
 * step and again on recovery, and both must agree. One that throws, or answers anything but a
 * policy, fails closed: the call does not run (docs/hitl.md, "Policies").
 */
export type PolicyFunction<Input = any> = (input: Input, context: { agent: string; sessionId?: string }) => ApprovalPolicy | PromiseLike<ApprovalPolicy>;

export interface ToolApprovalOptions<Input = any> {
  policy: ApprovalPolicy | PolicyFunction<Input>;
  /** The human may replace the arguments (validated against the tool's input schema). */
  allowEdit?: boolean;
  /**
   * Data the person gives with the decision, validated and kept in the log (docs/hitl.md):
   * one schema for whichever decision is made, or one per decision. An approval's data is
   * handed to the tool (`handlerContext().event.payload`); a rejection's is told to the model
   * with the denial.
   */
  approvalSchema?: z.ZodType | ApprovalSchemas;
  /** One line the approval card shows. */
  describe?: (input: Input) => string;
  /** How long the decision may wait: '30s', '15m', '24h', '7d' or milliseconds. */
  ttl?: string | number;
  /**
   * What happens when the TTL runs out: deny (the default), approve — only for low-risk calls,
   * as nobody looked at it — or escalate: tell `escalate.to` and wait `escalate.extendBy` more,
   * `escalate.times` times, then `escalate.then` (docs/approvals.md).
   */
  onExpire?: 'deny' | 'approve' | 'escalate';
  /** With onExpire 'escalate': who is told next, how much longer it waits, how often, and what then. */
  escalate?: EscalationOptions;
  /** A reminder this long before expiry ('1h', or milliseconds): recorded once, delivered as 'interrupt.reminder'. Needs a ttl. */
  remindBefore?: string | number;
  /**
   * Whether an approver may approve "and allow from now on" within the session: every scope
   * (true), some ('session', 'time', 'arguments'), or none (false, the default). Not with a
   * quorum above 1 (docs/approvals.md, "Scoped grants").
   */
  grants?: boolean | GrantScope[];
  /**
   * The longest a 'time' grant may last ('7d', '12h', or milliseconds; default '30d'): an approval
   * asking for longer is refused as `grant_invalid` (docs/approvals.md, "Scoped grants"). Needs
   * grants that include 'time'.
   */
  maxGrantTime?: string | number;
  /**
   * Who may approve or reject: whoever owns the session (the default), or only a key holder —
   * an API key by header, or a browser signed in with one — so that a chat user cannot approve
   * their own request (docs/security.md, "Approvers"). The session's owner may still cancel.
   */
  approvers?: Approvers;
  /**
   * How many distinct approvers must approve before the call runs (default 1). Each approval
   * short of it is a vote; the one that reaches it decides (docs/approvals.md, "Quorum and
   * separation of duties"). Needs `approvers` other than the session's owner, and no `allowEdit`.
   * A function of the call's arguments sets it per call (`(input) => input.amount > 100 ? 2 : 1`);
   * a call that needs more than one approver then cannot be edited, whatever `allowEdit` says.
   */
  quorum?: number | ((input: Input) => number);
  /**
   * false: the owner of the session that asked may neither approve nor reject the call — only
   * withdraw it (default true). Needs `approvers` other than the session's owner.
   */
  requesterMayApprove?: boolean;
  /** 'first' (the default): one rejection rejects. 'quorum': as many rejections as `quorum` reject; fewer are votes. */
  rejectOn?: 'first' | 'quorum';
}

/**
 * Who decides a gated call: the session's owner, only holders of an API key, or only those a
 * list names — `role:<role>` a user holding that role, `members` any signed-up user
 * (docs/users-and-roles.md), `key:<name-or-group>` a key of STACKBONE_API_KEYS labelled with
 * that name or in that group (`alice:finance=sk-…`; docs/approvals.md, "Quorum and separation of duties").
 */
export type Approvers = 'session-owner' | 'key-holders' | readonly ApproverMatch[];

/** One entry of an approvers list: `role:finance`, `members`, `key:finance`, `key:alice`. */
export type ApproverMatch = `role:${string}` | 'members' | `key:${string}`;

/** An expired approval request's escalation (docs/approvals.md, "Escalation and reminders"). */
export interface EscalationOptions {
  /** Who is told next: e-mail addresses or `key:<name>`; recorded on the event, delivered by the notice channels. */
  to?: string[];
  /** How much longer it waits after each escalation: '1h', or milliseconds. */
  extendBy: string | number;
  /** How many escalations (default 1); the expiry after the last one applies `then`. */
  times?: number;
  /** What the expiry after the last escalation does: deny (the default) or approve. */
  then?: 'deny' | 'approve';
}

/** The data of each decision, when they differ (e.g. a note to approve, a policy reason to reject). */
export interface ApprovalSchemas {
  approve?: z.ZodType;
  reject?: z.ZodType;
}

export type ToolApprovalSpec<Input = any> = ApprovalPolicy | PolicyFunction<Input> | ToolApprovalOptions<Input>;

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

/**
 * An MCP server whose tools the agent uses as its own, named `<server>_<tool>` (docs/mcp.md,
 * "MCP in"): a Streamable HTTP endpoint, or a local command spoken to over stdio (for
 * development: it is started for each call).
 */
export type McpServerSpec = McpHttpServer | McpStdioServer;

interface McpServerBase {
  /** The prefix of its tools' names: lower-case letters, digits and "-" (no "_": it separates the tool's own name). */
  name: string;
}

export interface McpHttpServer extends McpServerBase {
  /** The endpoint, or a function giving it when the server is first reached (e.g. from this app's own origin). */
  url: string | URL | (() => string | URL);
  /** Sent with every request (an API key); a function is asked each time a connection opens. */
  headers?: Record<string, string> | (() => Record<string, string>);
}

export interface McpStdioServer extends McpServerBase {
  command: string;
  args?: string[];
  /** The command's environment (its default: a few safe variables, as the MCP SDK chooses). */
  env?: Record<string, string>;
}

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
   */
  append: (...messages: ChatMessage[]) => Promise<AppendedRun | null>;
}

export interface ServerSessionOptions {
  /** Whose session: the owner its clients act as. Only open dev mode may leave it out. */
  ownerId?: string;
  store?: EventStore;
}

/** How the runtime finds an agent by its name (the registry in server/agents/ is one). */
export type FindAgent = (name: string) => DeepAgent | undefined;

const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const POLICIES: readonly ApprovalPolicy[] = ['approved', 'user-approval', 'denied'];

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
    const policy = spec && typeof spec === 'object' ? (spec as ToolApprovalOptions).policy : spec;
    if (typeof policy !== 'function' && !POLICIES.includes(policy as ApprovalPolicy)) {
      throw new Error(
        `Agent "${config.name}": the policy of "${toolName}" is ${JSON.stringify(policy)}; use 'approved', 'user-approval', 'denied' or a function.`,
      );
    }
    if (spec && typeof spec === 'object') checkApprovers(config.name, toolName, spec as ToolApprovalOptions);
    if (spec && typeof spec === 'object') checkExpiryAndGrants(config.name, toolName, spec as ToolApprovalOptions);
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

const MCP_SERVER_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

function checkMcpServers(agent: string, servers: McpServerSpec[] | undefined): McpServerSpec[] {
  if (servers === undefined) return [];
  if (!Array.isArray(servers)) throw new Error(`Agent "${agent}": mcpServers is a list of {name, url} or {name, command}.`);
  const names = new Set<string>();
  for (const server of servers) {
    const name: unknown = server?.name;
    if (typeof name !== 'string' || !MCP_SERVER_NAME.test(name)) {
      throw new Error(
        `Agent "${agent}": the MCP server name ${JSON.stringify(name)} must be 1 to 32 lower-case letters, digits or "-" (its tools are named "<server>_<tool>").`,
      );
    }
    if (names.has(name)) throw new Error(`Agent "${agent}": two MCP servers are named "${name}".`);
    names.add(name);
    const byUrl = 'url' in server && server.url !== undefined;
    const byCommand = 'command' in server && server.command !== undefined;
    if (byUrl === byCommand) throw new Error(`Agent "${agent}": MCP server "${name}" needs either a url (Streamable HTTP) or a command (stdio).`);
  }
  return servers;
}

/** `docs_search` or `docs_*` for an MCP server named `docs`. */
function namesMcpTool(servers: McpServerSpec[], toolName: string): boolean {
  return servers.some((server) => toolName.startsWith(`${server.name}_`) && toolName.length > server.name.length + 1);
}

/** `role:` and a role, `members`, or `key:` and a name or group as STACKBONE_API_KEYS labels keys (server/credentials/open-dev-mode.ts). */
const APPROVER_MATCH = /^(?:(?:role|key):[A-Za-z0-9_.-]{1,64}|members)$/;

/** Who decides, how many, and whether the requester may: refused when the agent is defined if nobody could ever decide as declared. */
function checkApprovers(agent: string, toolName: string, options: ToolApprovalOptions): void {
  const fail = (message: string) => {
    throw new Error(`Agent "${agent}": toolApproval.${toolName}: ${message}`);
  };
  const { approvers = 'session-owner', quorum = 1, requesterMayApprove = true, rejectOn = 'first' } = options;
  if (Array.isArray(approvers)) {
    if (approvers.length === 0) fail('approvers is an empty list; name at least one: "role:<role>", "members" or "key:<name-or-group>".');
    const bad = approvers.find((entry) => typeof entry !== 'string' || !APPROVER_MATCH.test(entry));
    if (bad !== undefined)
      fail(`approvers entry ${JSON.stringify(bad)} is not "role:<role>", "members" or "key:<name-or-group>" (letters, digits, "_", ".", "-").`);
    if (new Set(approvers).size !== approvers.length) fail('approvers names an entry twice.');
  } else if (approvers !== 'session-owner' && approvers !== 'key-holders') {
    fail(`approvers is ${JSON.stringify(approvers)}; use 'session-owner', 'key-holders' or a list like ['role:finance'].`);
  }
  const perCall = typeof quorum === 'function';
  if (!perCall && (!Number.isSafeInteger(quorum) || quorum < 1))
    fail(`quorum is a whole number, at least 1, not ${JSON.stringify(quorum)} (or a function of the call's arguments).`);
  if (typeof requesterMayApprove !== 'boolean') fail('requesterMayApprove is true or false.');
  if (rejectOn !== 'first' && rejectOn !== 'quorum') fail(`rejectOn is 'first' or 'quorum', not ${JSON.stringify(rejectOn)}.`);
  const byOwner = approvers === 'session-owner';
  if (byOwner && (perCall || quorum > 1))
    fail(`a quorum of ${quorum} needs approvers other than the session's owner ('key-holders' or a list): one owner is one approver.`);
  if (byOwner && !requesterMayApprove) fail("requesterMayApprove: false needs approvers other than the session's owner, or nobody could decide.");
  if (!perCall && quorum > 1 && options.allowEdit) fail('allowEdit cannot go with a quorum: every approver must approve the same arguments.');
}

const GRANT_SCOPES: readonly GrantScope[] = ['session', 'time', 'arguments'];

/** Escalation, reminders and grants are checked when the agent is defined (docs/approvals.md). */
function checkExpiryAndGrants(agent: string, toolName: string, options: ToolApprovalOptions) {
  const fail = (message: string) => {
    throw new Error(`Agent "${agent}": toolApproval.${toolName}: ${message}`);
  };
  const { onExpire, escalate, remindBefore, grants, quorum } = options;
  if (onExpire !== undefined && onExpire !== 'deny' && onExpire !== 'approve' && onExpire !== 'escalate') fail(`onExpire is 'deny', 'approve' or 'escalate'.`);
  checkDuration(agent, `toolApproval.${toolName}.ttl`, options.ttl);
  if (onExpire === 'escalate') {
    if (options.ttl === undefined) fail(`onExpire 'escalate' needs a ttl.`);
    if (!escalate || typeof escalate !== 'object') fail(`onExpire 'escalate' needs escalate: { extendBy, to?, times?, then? }.`);
    checkDuration(agent, `toolApproval.${toolName}.escalate.extendBy`, escalate!.extendBy);
    if (escalate!.extendBy === undefined) fail('escalate.extendBy is required.');
    const times = escalate!.times ?? 1;
    if (!Number.isInteger(times) || times < 1 || times > 10) fail(`escalate.times is a whole number from 1 to 10, not ${JSON.stringify(times)}.`);
    if (escalate!.then !== undefined && escalate!.then !== 'deny' && escalate!.then !== 'approve') fail(`escalate.then is 'deny' or 'approve'.`);
    const to = escalate!.to ?? [];
    if (!Array.isArray(to) || to.some((who) => typeof who !== 'string' || !who.trim()))
      fail('escalate.to is a list of recipients (e-mail addresses, key:<name>).');
  } else if (escalate !== undefined) fail(`escalate is given but onExpire is not 'escalate'.`);
  if (remindBefore !== undefined) {
    if (options.ttl === undefined) fail('remindBefore needs a ttl.');
    checkDuration(agent, `toolApproval.${toolName}.remindBefore`, remindBefore);
  }

  if (grants !== undefined && typeof grants !== 'boolean') {
    if (!Array.isArray(grants) || grants.some((scope) => !GRANT_SCOPES.includes(scope)))
      fail(`grants is true, false or a list of 'session', 'time', 'arguments'.`);
  }
  const granting = grants === true || (Array.isArray(grants) && grants.length > 0);
  if (granting && (typeof quorum === 'function' || (quorum ?? 1) > 1))
    fail('a tool that needs a quorum cannot grant standing approvals: each call needs its quorum.');
  if (options.maxGrantTime !== undefined) {
    if (grants !== true && !(Array.isArray(grants) && grants.includes('time'))) fail("maxGrantTime needs grants that include 'time'.");
    checkDuration(agent, `toolApproval.${toolName}.maxGrantTime`, options.maxGrantTime);
    const ms = parseDuration(options.maxGrantTime, 'maxGrantTime');
    // A grant's end must be a date: "no limit" is what the bound exists to rule out.
    if (!(ms > 0) || !Number.isFinite(ms)) fail(`maxGrantTime is a positive, finite duration, not ${JSON.stringify(options.maxGrantTime)}.`);
  }
}

/** A bad duration fails when the agent is defined, not in the middle of someone's run. */
function checkDuration(agent: string, option: string, value: string | number | undefined) {
  if (value === undefined) return;
  try {
    parseDuration(value, option);
  } catch (error) {
    throw new Error(`Agent "${agent}": ${(error as Error).message}`);
  }
}
