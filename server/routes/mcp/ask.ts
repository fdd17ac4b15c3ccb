// One `ask_<agent>` call of the MCP server (docs/mcp.md, "MCP out"): a turn on a durable
// session, and when it pauses, the decisions asked of the MCP client's human. Deciding is the
// out-of-band pipeline every other surface uses (runtime decideInterrupt, as /api/hitl does),
// so an interrupt is decided exactly once whichever path answers: the elicitation, Studio, the
// CLI or the HTTP API. What the client cannot ask in a form waits durably in the inbox.
import { randomUUID } from 'node:crypto';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { findAgent } from '../../agents';
import type { DeepAgent } from '../../define';
import type { DecisionActor, InterruptRecord } from '../../events';
import type { KeepAlive } from '../../http/keep-alive';
import {
  SESSION_ID_RULE,
  decideInterrupt,
  isExpired,
  isSessionId,
  openSession,
  pendingInterrupts,
  Refusal,
  scopedSessionId,
  startRun,
  userMessage,
  type StartedRun,
} from '../../runtime';
import { getStore } from '../../store';
import { decisionFromElicitation, elicitationFor } from '../../wire/mcp/elicitation';
import { collectReply } from '../../wire/mcp/reply';

/** Who asks, as the MCP session was opened (handler.ts binds it to one owner). */
export interface McpCaller {
  ownerId: string;
  credential: NonNullable<DecisionActor['credential']>;
  /** This server's origin, for the links to Studio and /api/hitl. */
  origin: string;
}

/** What the client can do for its human during the call. */
export interface ClientReach {
  /** Asks in a form; undefined when the client has no form elicitation, or the form went unanswered in time. */
  form?: (params: ElicitRequestFormParams) => Promise<ElicitResult | undefined>;
  /** Shows a link to decide at (URL-mode elicitation); undefined when the client has none. */
  link?: (params: { message: string; url: string; elicitationId: string }) => Promise<void>;
  keepAlive: KeepAlive;
}

/** A decision the call left waiting, and where a person makes it. */
interface WaitingDecision {
  id: string;
  message: string;
  /** Studio's inbox lists it (docs/studio.md). */
  studio: string;
  /** The out-of-band API's approve endpoint (docs/hitl.md, "Out of band"). */
  approve: string;
}

export interface AskResult {
  /** The session key: ask again with it to continue the conversation. */
  session: string;
  status: 'done' | 'waiting' | 'failed';
  /** The agent's text, one paragraph per model step. */
  text: string[];
  /** Why the caller's message was not sent, or why the run failed. */
  note?: string;
  waiting: WaitingDecision[];
}

export async function ask(agent: DeepAgent, caller: McpCaller, input: { message: string; session?: string }, reach: ClientReach): Promise<AskResult> {
  const key = input.session ?? `mcp-${randomUUID()}`;
  if (!isSessionId(key)) throw new Refusal('invalid_request', `session ${SESSION_ID_RULE}.`);
  const store = getStore();
  const sessionId = scopedSessionId(caller.ownerId, key);
  const result: AskResult = { session: key, status: 'done', text: [], waiting: [] };
  const follow = async (run: StartedRun) => {
    reach.keepAlive(run.done);
    const reply = await collectReply(run);
    result.text.push(...reply.text);
    if (reply.error) Object.assign(result, { status: 'failed', note: `${reply.error.code}: ${reply.error.message}` });
    return reply.interrupts;
  };

  const { view } = await openSession(store, sessionId, caller.ownerId, agent);
  let pending = pendingInterrupts(view).filter((record) => !isExpired(record));
  if (pending.length) {
    // As on the chat wires, a message is not taken while a decision is open (docs/wires.md).
    result.note = 'Your message was not sent: this conversation is waiting on a decision. Decide it, then ask again.';
  } else {
    // A message sent while a turn runs (a decision's continuation) waits for it, as on the chat wires.
    pending = await follow(
      await startRun({
        agent,
        store,
        sessionId,
        ownerId: caller.ownerId,
        durable: true,
        source: 'mcp',
        messages: [userMessage(input.message)],
        queue: 'running',
      }),
    );
  }

  const by: DecisionActor = { source: 'mcp', ownerId: caller.ownerId, credential: caller.credential };
  while (pending.length && result.status !== 'failed') {
    let continuation: StartedRun | undefined;
    for (const record of pending) {
      const form = reach.form && elicitationFor(record);
      const answer = form && (await reach.form!(form));
      const decision = answer && decisionFromElicitation(record, answer);
      if (!decision) return waitFor(result, pending, caller, reach);
      try {
        const decided = await decideInterrupt({ store, findAgent, ownerId: caller.ownerId, interruptId: record.id, request: decision, by });
        continuation = decided.continuation;
      } catch (error) {
        // Decided elsewhere meanwhile (exactly once: theirs stands), or refused as given (an edit that fails the tool's schema).
        if (!(error instanceof Refusal)) throw error;
        return waitFor({ ...result, note: error.message }, pendingInterrupts((await openSession(store, sessionId, caller.ownerId, agent)).view), caller, reach);
      }
    }
    // The last decision of the batch started the continuation; it may pause again.
    pending = continuation ? await follow(continuation) : [];
  }
  return result;
}

/** The call ends with the decisions waiting; they stay open in the inbox (and in Studio) until someone decides. */
async function waitFor(result: AskResult, pending: InterruptRecord[], caller: McpCaller, reach: ClientReach): Promise<AskResult> {
  const waiting = pending.map((record) => ({
    id: record.id,
    message: record.message,
    studio: `${caller.origin}/studio`,
    approve: `${caller.origin}/api/hitl/${encodeURIComponent(record.id)}/approve`,
  }));
  if (!waiting.length) return { ...result, status: 'done' };
  for (const entry of waiting) await reach.link?.({ message: `Decide in Studio: ${entry.message}`, url: entry.studio, elicitationId: entry.id });
  return { ...result, status: 'waiting', waiting };
}
