// handlerContext(): what a tool's execute() may know about the call it serves.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { ChatMessage, JsonObject } from '../../store/messages';

/** When a timer fires: after a delay ('10s', '5m', milliseconds) or at a time. */
export type TimerWhen = { delay: string | number } | { at: Date | string };

/**
 * Why a gated call runs without a pause now: a person approved it, its policy approved it when
 * nobody decided in time (`reason` says how long it waited), or it is inside a grant the session's
 * approver made (docs/approvals.md). Absent for a call that needed no approval.
 */
export type ToolApproval = { by: 'person' } | { by: 'expiry'; reason: string } | { by: 'grant'; grantId: string };

export interface HandlerContext {
  /** The tool call being served. `toolCallId` names it within its session only. */
  event: {
    /**
     * The id of the event this handler serves: the tool call, by its id in the log (so, here,
     * `toolCallId`) — the same on every attempt (a call carried out again after a crash, or
     * resumed after its approval) and never repeated within the session, since the server
     * replaces a call id a provider reuses (turn/model-step.ts). Name what the handler keys within
     * its session after it, and a retry converges on the same thing. A timer's messages need no
     * such name: they take the timer's own ids (docs/turn-control.md, "Timers"). Beyond the
     * session, use `idempotencyKey`.
     */
    id: string;
    toolCallId: string;
    toolName: string;
    input: unknown;
    payload?: unknown;
    approval?: ToolApproval;
  };
  /**
   * The key for side effects (docs/hitl.md, "Exactly once"): the same for every attempt of this
   * call — a call carried out again after a crash has the same key — and unique across sessions,
   * owners and servers, unlike `toolCallId` (a provider may send `call_0` in every session). Pass
   * it to whatever you call (an `Idempotency-Key` header, a unique column).
   */
  idempotencyKey: string;
  /** 1 on the first try; higher when the runtime carries out the call again after a crash. */
  attempt: number;
  session: {
    id: string;
    agent: string;
    ownerId: string;
    durable: boolean;
    /**
     * Schedules messages for this session (docs/turn-control.md, "Timers"): durable, fired once,
     * de-duplicated by key — a tool carried out again schedules nothing new with the same key
     * (`toolCallId` makes a good one). A stateless turn has no session to schedule on: it throws.
     */
    schedule: (key: string, when: TimerWhen, ...messages: ChatMessage[]) => Promise<{ id: string; fireAt: string; created: boolean }>;
  };
  /** Aborts when the run is stopped (reason 'stopped') or the call times out (reason 'timeout'); a client going away never aborts it (docs/hitl.md). */
  signal: AbortSignal;
  /**
   * The session's shared state, as a draft: mutate it and the runtime publishes the change
   * (an RFC 6902 delta) when the tool returns.
   */
  state: JsonObject;
}

/**
 * What a tool shared by name expects of the agent it runs in: the agent, and (as a type) its
 * shared state. experimental-a2's `agentContract()` also types application events; our log has
 * none an app defines, so ours types `ctx.state` (docs/seed-names.md, "The handler context").
 */
export interface AgentContract<State extends JsonObject = JsonObject> {
  readonly agent: string;
  /** Never set: carries the state's type to handlerContext(contract). */
  readonly state?: State;
}

/** A contract for tools that run in `agent` (its name, or the agent); `State` types `ctx.state`. */
export function agentContract<State extends JsonObject = JsonObject>(agent: string | { name: string }): AgentContract<State> {
  const name = typeof agent === 'string' ? agent : agent?.name;
  if (typeof name !== 'string' || !name) throw new TypeError('agentContract(): name the agent the tools run in (its name, or the agent).');
  return { agent: name };
}

const storage = new AsyncLocalStorage<HandlerContext>();

/**
 * The context of the tool call in progress. Throws outside a tool's execute(); given a contract,
 * throws too when the tool runs in another agent than the contract's — a shared tool added to
 * the wrong agent fails at its first call, not by writing into a state it does not know.
 */
export function handlerContext(): HandlerContext;
export function handlerContext<State extends JsonObject>(contract: AgentContract<State>): HandlerContext & { state: State };
export function handlerContext(contract?: AgentContract): HandlerContext {
  const context = storage.getStore();
  if (!context) throw new Error('handlerContext() is only available inside a tool execute() run by the Stackbone runtime.');
  if (contract && contract.agent !== context.session.agent)
    throw new Error(
      `handlerContext(contract): this tool's contract is for agent "${contract.agent}", but it runs in agent "${context.session.agent}" (call ${context.event.toolCallId}).`,
    );
  return context;
}

/** Runs fn with the given context: how the runtime calls tools, and how tests can. */
export function runWithHandlerContext<T>(context: HandlerContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** A tool call's idempotency key: a digest of its session's stored id (unique across owners) and its call id (unique in the session). */
export function idempotencyKey(sessionId: string, toolCallId: string): string {
  return `idem_${createHash('sha256').update(`${sessionId}\n${toolCallId}`).digest('base64url').slice(0, 32)}`;
}

/**
 * The idempotency key of the undo of a call: made from the session the call ran in and its id,
 * not from the fork that asks, so every fork that undoes one effect undoes it under one key and a
 * tool that keys on it takes the effect back once (docs/time-travel.md, "Undoing a dropped effect").
 */
export function undoIdempotencyKey(sessionId: string, toolCallId: string): string {
  return `idem_${createHash('sha256').update(`undo\n${sessionId}\n${toolCallId}`).digest('base64url').slice(0, 32)}`;
}
