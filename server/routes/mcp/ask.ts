// One `ask_<agent>` call of the MCP server (docs/mcp.md, "MCP out"): a turn on a durable
// session, and when it pauses, the decisions asked of the MCP client's human. Deciding is the
// out-of-band pipeline every other surface uses (runtime decideInterrupt, as /api/hitl does),
// so an interrupt is decided exactly once whichever path answers: the elicitation, Studio, the
// CLI or the HTTP API. What the client cannot ask in a form waits durably in the inbox.
// Both protocol eras run this one function: a 2025-era client is asked during the call (its
// answers come back on the open session); a 2026-07-28 client is answered `input_required` for
// what is still open, and its retry (`resumed`) brings the answers — on any instance.
import { randomUUID } from 'node:crypto';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';
import { findAgent } from '../../agents';
import type { DeepAgent } from '../../authoring';
import type { DecisionActor, InterruptRecord } from '../../store/pauses';
import type { KeepAlive } from '../../http/keep-alive';
import {
  SESSION_ID_RULE,
  decideInterrupt,
  follow as followSession,
  isExpired,
  isSessionId,
  openSession,
  pendingInterrupts,
  Refusal,
  scopedSessionId,
  startRun,
  userMessage,
  type DecisionRequest,
  type StartedRun,
  type StreamPart,
} from '../../runtime';
import { getStore } from '../../store';
import type { EventStore } from '../../store/types';
import { decideAtLinkMessage, decisionFromElicitation, elicitationFor } from '../../wire/mcp/elicitation';
import { collectReply, type RunReply } from '../../wire/mcp/reply';
import type { AskState } from '../../wire/mcp/request-state';

/** Who asks, as the MCP session was opened (handler.ts binds it to one owner). */
export interface McpCaller {
  ownerId: string;
  credential: NonNullable<DecisionActor['credential']>;
  /** This server's origin, for the links to Studio and /api/hitl. */
  origin: string;
}

/** What the client can do for its human during the call. */
export interface ClientReach {
  /** Asks in a form; undefined when the client has no form elicitation, or the form went unanswered in time (or, on a retry, was not asked). */
  form?: (params: ElicitRequestFormParams, record: InterruptRecord) => Promise<ElicitResult | undefined>;
  /** Shows a link to decide at (URL-mode elicitation): whether the person accepted to go there; undefined when the client has none. */
  link?: (params: { message: string; url: string; elicitationId: string }) => Promise<boolean>;
  /**
   * 2026-07-28: whether what is still open goes back to the client as `input_required` (it asks
   * its human and calls again) rather than waiting in the inbox: when the client can be asked at
   * all, and something open was not answered in this round — one answered and still open (a link
   * declined, an answer refused) is not asked again and again.
   */
  defer?: (open: InterruptRecord[]) => boolean;
  /** How long the call waits for a decision made at the link. */
  waitMs: number;
  /** The client cancelled the call. */
  signal?: AbortSignal;
  keepAlive: KeepAlive;
}

/** A decision the call left waiting, and where a person makes it. */
interface WaitingDecision {
  id: string;
  message: string;
  /** Studio's inbox, with this decision marked (docs/studio.md). */
  studio: string;
  /** The out-of-band API's approve endpoint (docs/hitl.md, "Out of band"). */
  approve: string;
}

export interface AskResult {
  /** The session key: ask again with it to continue the conversation. */
  session: string;
  status: 'done' | 'waiting' | 'failed' | 'input_required';
  /** The agent's text, one paragraph per model step. */
  text: string[];
  /** Why the caller's message was not sent, or why the run failed. */
  note?: string;
  waiting: WaitingDecision[];
  /** `input_required`: the decisions to ask of the client's human, and where the log stood at their pause (the retry's state). */
  open?: { records: InterruptRecord[]; seq: number };
}

export async function ask(
  agent: DeepAgent,
  caller: McpCaller,
  input: { message: string; session?: string },
  reach: ClientReach,
  /** A 2026-07-28 retry: the state the round that answered `input_required` sealed. */
  resumed?: AskState,
): Promise<AskResult> {
  const key = resumed?.session ?? input.session ?? `mcp-${randomUUID()}`;
  if (!isSessionId(key)) throw new Refusal('invalid_request', `session ${SESSION_ID_RULE}.`);
  const store = getStore();
  const sessionId = scopedSessionId(caller.ownerId, key);
  const result: AskResult = { session: key, status: 'done', text: [], waiting: [] };
  // Where the log stood when the decisions now open were asked: whoever decides, the continuation
  // comes after it. Taken from the run that paused, never read later: a decision made meanwhile
  // (Studio, another client) would put a later read past the continuation it started.
  let pausedAt: number | undefined;
  const take = (reply: RunReply) => {
    result.text.push(...reply.text);
    if (reply.error) Object.assign(result, { status: 'failed', note: `${reply.error.code}: ${reply.error.message}` });
    pausedAt = reply.interrupts.length ? reply.endSeq : undefined;
    return reply.interrupts;
  };
  const follow = (run: StartedRun) => {
    reach.keepAlive(run.done);
    return collectReply(run.stream(null)).then(take);
  };
  const current = async () => {
    const { view } = await openSession(store, sessionId, caller.ownerId, agent);
    return { seq: view.seq, pending: pendingInterrupts(view).filter((record) => !isExpired(record)) };
  };

  let { pending, seq: openedAt } = await current();
  if (resumed) {
    // The retry carries the same message: it was sent in the first round, and is not sent again.
    if (pending.some((record) => resumed.interrupts.includes(record.id))) pausedAt = resumed.seq;
    else {
      // Decided elsewhere between the rounds (Studio, a link, /api/hitl): the retry answers with what followed.
      result.note = 'This decision was already made elsewhere; here is what followed.';
      const next = await collectReply(sessionParts(store, sessionId, agent, resumed.seq, reach));
      if (!next.ended) return waitFor(result, (await current()).pending, caller);
      pending = take(next);
    }
  } else if (pending.length) {
    // As on the chat wires, a message is not taken while a decision is open (docs/internals/wires.md).
    result.note = 'Your message was not sent: this conversation is waiting on a decision. Decide it, then ask again.';
    pausedAt = openedAt;
  } else {
    // A message sent while a turn runs (a decision's continuation) waits for it, as on the chat wires.
    const messages = [userMessage(input.message)];
    pending = await follow(await startRun({ agent, store, sessionId, ownerId: caller.ownerId, durable: true, source: 'mcp', messages, queue: 'running' }));
  }

  const by: DecisionActor = { source: 'mcp', ownerId: caller.ownerId, credential: caller.credential };
  while (pending.length && result.status !== 'failed') {
    // A run's pause is an event of the log, so its reply names where it stood; the read is for a reply that did not.
    pausedAt ??= (await current()).seq;
    const decided = await decideInForms(pending, reach, (record, request) => decideInterrupt({ store, findAgent, interruptId: record.id, request, by }));
    if (decided.kind === 'decided') {
      // The last decision of the batch started the continuation; it may pause again.
      pending = decided.continuation ? await follow(decided.continuation) : [];
      continue;
    }
    if (decided.kind === 'refused') result.note = decided.message;
    const now = await current();
    // Still open: shown as a link where the client can (URL mode), and then awaited; else the call ends, the decision
    // waiting — or, on 2026-07-28, goes back to the client as input_required: it asks its human and calls again.
    if (now.pending.length && !(await linksAccepted(now.pending, caller, reach))) {
      const waiting = waitFor(result, now.pending, caller);
      // A vote short of its quorum waits for the other approvers, not for this client again.
      return reach.defer?.(now.pending) && decided.kind !== 'voted'
        ? { ...waiting, status: 'input_required', open: { records: now.pending, seq: pausedAt } }
        : waiting;
    }
    // Decided, here or elsewhere (exactly once: a form answered after Studio decided is refused): the continuation's reply.
    const next = await collectReply(sessionParts(store, sessionId, agent, pausedAt, reach));
    if (!next.ended) return waitFor(result, (await current()).pending, caller);
    pending = take(next);
  }
  return result;
}

type FormOutcome = { kind: 'decided'; continuation?: StartedRun } | { kind: 'open' } | { kind: 'voted' } | { kind: 'refused'; message: string };

/** Asks each pending decision in a form and records the answers; `open` when one cannot be asked or was not answered. */
async function decideInForms(
  pending: InterruptRecord[],
  reach: ClientReach,
  decide: (record: InterruptRecord, request: Omit<DecisionRequest, 'interruptId'>) => Promise<{ continuation?: StartedRun; vote?: unknown }>,
): Promise<FormOutcome> {
  let continuation: StartedRun | undefined;
  for (const record of pending) {
    const form = reach.form && elicitationFor(record);
    const answer = form && (await reach.form!(form, record));
    const request = answer && decisionFromElicitation(record, answer);
    if (!request) return { kind: 'open' };
    try {
      const outcome = await decide(record, request);
      // A vote short of its quorum: the decision is still open, for other approvers (docs/approvals.md).
      if (outcome.vote) return { kind: 'voted' };
      ({ continuation } = outcome);
    } catch (error) {
      // Decided elsewhere meanwhile (theirs stands), or refused as given (an edit that fails the tool's schema).
      if (error instanceof Refusal) return { kind: 'refused', message: error.message };
      throw error;
    }
  }
  return { kind: 'decided', continuation };
}

/** Shows each decision's Studio link (URL-mode elicitation); true when the client has them and the person accepted every one. */
async function linksAccepted(pending: InterruptRecord[], caller: McpCaller, reach: ClientReach): Promise<boolean> {
  if (!reach.link) return false;
  for (const record of pending) {
    const accepted = await reach.link({ message: decideAtLinkMessage(record), url: studioLink(caller, record), elicitationId: record.id });
    if (!accepted) return false;
  }
  return true;
}

/**
 * The parts of the next run to start after `seq` (the continuation), from the log and live,
 * until the client's wait runs out or it cancels the call. From its run-started on: the pause
 * itself may be written at `seq` or just after it.
 */
async function* sessionParts(store: EventStore, sessionId: string, agent: DeepAgent, seq: number, reach: ClientReach): AsyncGenerator<StreamPart> {
  const after = { seq, j: Number.MAX_SAFE_INTEGER };
  let started = false;
  for await (const entry of followSession({ store, sessionId, initialState: agent.initialState, after, signal: reach.signal, maxMs: reach.waitMs })) {
    started ||= entry.part.type === 'run-started';
    if (started) yield entry;
  }
}

/** The call ends with the decisions waiting; they stay open in the inbox (and in Studio) until someone decides. */
function waitFor(result: AskResult, pending: InterruptRecord[], caller: McpCaller): AskResult {
  const waiting = pending.map((record) => ({
    id: record.id,
    message: record.message,
    studio: studioLink(caller, record),
    approve: `${caller.origin}/api/hitl/${encodeURIComponent(record.id)}/approve`,
  }));
  return waiting.length ? { ...result, status: 'waiting', waiting } : result;
}

/** Studio's inbox with this decision marked and scrolled to (docs/studio.md, "The inbox"). */
export function studioLink(caller: McpCaller, record: InterruptRecord): string {
  return `${caller.origin}/studio?decision=${encodeURIComponent(record.id)}`;
}
