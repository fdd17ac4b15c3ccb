// Deciding through a signed one-click link (docs/approvals.md, "Notifications and one-click
// links"). Reading a link (the confirmation page, GET) decides nothing: mail scanners open every
// link they see. A decision (the page's form, POST) verifies the token again and goes through
// the one pipeline every out-of-band decision takes (decideInterrupt), recorded as decided by
// `link`, for the recipient the link was minted for. A link works once: the interrupt it names
// is decided once, and a decided interrupt refuses every later link.
import type { FindAgent } from '../../authoring';
import type { Decision, DecisionActor, InterruptRecord } from '../../store/pauses';
import type { JsonObject } from '../../store/messages';
import { recipientAddress } from '../../credentials/approver-emails';
import { inputJsonSchema, linkActor, voterIdentity } from '../decisions';
import type { EventStore } from '../../store/types';
import { Refusal } from '../errors';
import { argumentsHash, verifyLink, type LinkClaims } from '../notify';
import { loadView, sessionKeyOf } from '../session';
import { agentTools } from '../tools';
import { decideInterrupt, type DecideResult } from './decide-out-of-band';

/** What a link points at, as the confirmation page shows it. */
export interface LinkView {
  claims: LinkClaims;
  interrupt: InterruptRecord;
  /** The tool's input schema (labels and formats for its arguments), while the agent still has the tool. */
  inputSchema?: JsonObject;
  /** The session's key (what Studio and the clients name it by) and its agent. */
  session: { key: string; agent: string; agentDisplayName: string };
  /** The last thing the session's user wrote, for context; absent when there is none. */
  lastUserMessage?: string;
  /** The decision, once made (by this link or any other path), and when it was recorded. */
  decided?: { decision: Decision; at: string };
  /** For a call that needs several approvers: how many, how many approved so far, and whether this link's person is one of them. */
  quorum?: { required: number; approvals: number; voted: boolean };
  /** The key name this link's vote counts as, when its recipient is bound to one (docs/approvals.md, "A link counts as a person"). */
  countsAs?: string;
}

/** How long a context line from the conversation may be on the page. */
const CONTEXT_CHARS = 600;
/** How long a reason given on the page may be (as POST /api/hitl/{id}/reject takes it). */
const MAX_REASON_CHARS = 2000;

const noInterrupt = (id: string) => new Refusal('not_found', `No interrupt ${id}.`, { what: 'interrupt' });

/**
 * Reads a link: its token verified (signature, expiry), its interrupt found, and the arguments
 * the call would run with still those the link was minted for (`link_arguments_changed`
 * otherwise). A decided interrupt is read too, with its decision: the page says who decided.
 */
export async function readLink(store: EventStore, findAgent: FindAgent, token: string, now: Date = new Date()): Promise<LinkView> {
  const claims = verifyLink(token, now);
  const row = await store.findInterrupt(claims.interruptId);
  const session = row && (await store.getSession(row.sessionId));
  if (!row || !session) throw noInterrupt(claims.interruptId);
  const agent = findAgent(session.agent);
  const view = await loadView(store, session.id, agent?.initialState ?? {});
  const state = view.interrupts[claims.interruptId];
  if (!state) throw noInterrupt(claims.interruptId);
  if (argumentsHash(state.record.input) !== claims.argsHash) {
    throw new Refusal(
      'link_arguments_changed',
      'This link was made for other arguments than the call would now run with, so it decides nothing. Open the request in Studio to see what it asks.',
      { interruptId: claims.interruptId },
    );
  }
  const lastUser = [...view.messages].reverse().find((message) => message.role === 'user');
  const by = await linkDecider(store, claims.recipient);
  const votes = state.votes ?? [];
  const owner = findAgent(state.record.agent) ?? agent;
  const tool = owner && agentTools(owner)[state.record.toolName];
  return {
    claims,
    interrupt: state.record,
    ...(tool ? { inputSchema: inputJsonSchema(tool) } : {}),
    session: { key: sessionKeyOf(session.id), agent: session.agent, agentDisplayName: agent?.displayName ?? session.agent },
    ...(lastUser?.content ? { lastUserMessage: lastUser.content.slice(0, CONTEXT_CHARS) } : {}),
    ...(state.decision ? { decided: { decision: state.decision, at: state.decidedAt ?? new Date().toISOString() } } : {}),
    ...(state.record.quorum
      ? {
          quorum: {
            required: state.record.quorum,
            approvals: votes.filter((vote) => vote.status === 'approved').length,
            voted: votes.some((vote) => voterIdentity(vote.by) === voterIdentity(by)),
          },
        }
      : {}),
    ...(by.keyName ? { countsAs: by.keyName } : {}),
  };
}

/** "approved by desk@example.com (an emailed link) on Wed, 02 Dec 2026 06:10:00 GMT": a decision as the page and a refusal say it. */
export function describeDecision(decided: { decision: Decision; at: string }): string {
  const { decision } = decided;
  const verb = decision.status === 'approved' ? 'approved' : decision.status === 'denied' ? 'rejected' : 'withdrawn';
  const how = decision.expired ? 'automatically, when the request expired' : `by ${actorWords(decision.by)}`;
  return `${verb} ${how} on ${new Date(decided.at).toUTCString()}`;
}

/** Where a decision was made, never who made it: a link's holder may be anyone the message reached (docs/security.md). */
function actorWords(by: DecisionActor): string {
  if (by.source === 'link') {
    if (by.recipient?.startsWith('email:')) return 'someone through an emailed link';
    return by.recipient === 'slack' ? 'someone through a link in Slack' : 'someone through a link';
  }
  const where: Partial<Record<DecisionActor['source'], string>> = {
    agui: 'the chat',
    studio: 'Studio',
    cli: 'the CLI',
    hitl: 'the HTTP API',
    mcp: 'an MCP client',
    responses: 'the Responses API',
    queue: 'a message sent now',
  };
  return `someone in ${where[by.source] ?? by.source}`;
}

export interface LinkDecision {
  store: EventStore;
  findAgent: FindAgent;
  token: string;
  /** Why, for a rejection: the model is told. */
  reason?: string;
  now?: Date;
}

/**
 * Decides through a link: the token verified again, its interrupt still open and its arguments
 * unchanged, the link an approve or reject one. Refusals write nothing: `link_invalid`,
 * `link_expired`, `link_arguments_changed`, `interrupt_already_decided` (saying by whom and when),
 * and whatever the pipeline refuses.
 */
export async function decideByLink(options: LinkDecision): Promise<DecideResult> {
  const link = await readLink(options.store, options.findAgent, options.token, options.now);
  const { claims } = link;
  if (link.decided) {
    throw new Refusal('interrupt_already_decided', `This request was already decided: ${describeDecision(link.decided)}. A link works once.`, {
      interruptId: claims.interruptId,
    });
  }
  if (claims.action === 'open') throw new Refusal('link_invalid', 'This link opens the request; it does not decide it. Open it in Studio to decide.');
  const reason = options.reason?.trim().slice(0, MAX_REASON_CHARS) || undefined;
  return decideInterrupt({
    store: options.store,
    findAgent: options.findAgent,
    interruptId: claims.interruptId,
    request: claims.action === 'approve' ? { status: 'approved' } : { status: 'denied', ...(reason ? { reason } : {}) },
    // As the person the link's recipient is bound to, or the recipient alone (docs/approvals.md, "A link counts as a person").
    by: await linkDecider(options.store, claims.recipient),
  });
}

/** Who a link decides as: its recipient's key or signed-up user (docs/users-and-roles.md, "Links belong to people"), else nobody but the recipient. */
async function linkDecider(store: EventStore, recipient: string): Promise<DecisionActor> {
  const address = recipientAddress(recipient);
  return linkActor(recipient, address ? await store.personByAddress(address) : null);
}
