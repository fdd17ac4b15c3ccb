// What a signed approval receipt says (docs/approvals.md, "Signed receipts"): one decision or vote
// on one interrupt, bound to the arguments as they will run by their digest. Built from the
// interrupt as it opened and the decision as the log records it, nothing else: the receipt is a
// signature over the log's own facts.
import { createHash, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import { publicOwnerId } from '../credentials/open-dev-mode';

// The parts of the log's records a receipt reads (server/store/pauses.ts has them whole): the
// store signs with this room, so this room does not import the store.

/** Who decided, through which path (the log's DecisionActor). */
interface Decider {
  source: 'agui' | 'hitl' | 'cli' | 'studio' | 'expiry' | 'server' | 'queue' | 'mcp' | 'responses' | 'link';
  ownerId?: string;
  keyName?: string;
  recipient?: string;
  client?: string;
}

/** A decision, or one approver's vote (the log's Decision and Vote). */
interface Decided {
  status: 'approved' | 'denied' | 'cancelled';
  reason?: string;
  editedArgs?: unknown;
  expired?: boolean;
  by: Decider;
}

/** The pause decided (the log's InterruptRecord). */
interface PausedCall {
  id: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  runId: string;
  expiresAt?: string;
}

/** Where a decision was made, as the receipt names it. */
type ReceiptChannel = 'chat' | 'studio' | 'cli' | 'http' | 'email' | 'slack' | 'link' | 'mcp' | 'responses' | 'expiry' | 'server' | 'queue';

export interface ReceiptClaims {
  /** The server that decided: its public origin. */
  iss: string;
  /** The session's key, as its owner names it. */
  sessionId: string;
  /** The run that paused for the decision. */
  runId: string;
  interruptId: string;
  toolCallId: string;
  tool: string;
  /** `vote`: one approver's vote short of a quorum; `decision`: what the interrupt became. */
  kind: 'decision' | 'vote';
  decision: Decided['status'];
  /** The interrupt expired and this is its default action. */
  expired?: true;
  reason?: string;
  /** SHA-256 (hex) of the RFC 8785 canonical JSON of the arguments as they will run: after edits. */
  argsDigest: string;
  /** The same of the arguments the model proposed, when an edit replaced them. */
  originalArgsDigest?: string;
  /** Who decided: a key's name (`key:alice`), a public owner id, a link's recipient, or `expiry`. */
  decidedBy: string;
  channel: ReceiptChannel;
  decidedAt: string;
  /** When the interrupt would have expired, if it could. */
  expiresAt?: string;
  nonce: string;
}

/** SHA-256 (hex) of a JSON value's canonical form (RFC 8785): equal for equal values, whatever their key order. */
export function argsDigest(args: unknown): string {
  const canonical = canonicalize(args ?? null);
  if (canonical === undefined) throw new TypeError('argsDigest: the arguments are not JSON.');
  return createHash('sha256').update(canonical).digest('hex');
}

/** The channel a decider came through; a link by where it was sent (docs/approvals.md, "Notifications and one-click links"). */
function channelOf(by: Decider): ReceiptChannel {
  switch (by.source) {
    case 'agui':
      return 'chat';
    case 'hitl':
      return by.client === 'cli' ? 'cli' : 'http';
    case 'link':
      return by.recipient?.startsWith('email:') ? 'email' : by.recipient === 'slack' ? 'slack' : 'link';
    default:
      return by.source;
  }
}

/** The decider as a receipt may show them: never a key's digest, which names the key. */
function deciderOf(by: Decider): string {
  if (by.source === 'expiry') return 'expiry';
  if (by.keyName) return `key:${by.keyName}`;
  if (by.ownerId !== undefined) return publicOwnerId(by.ownerId);
  return by.recipient ?? by.source;
}

export interface ReceiptSubject {
  issuer: string;
  sessionKey: string;
  record: PausedCall;
  decidedAt: string;
}

/** The claims of a decision, or of one approver's vote (`vote`), on `record`. */
export function receiptClaims(
  subject: ReceiptSubject,
  decided: { kind: 'decision'; decision: Decided } | { kind: 'vote'; vote: Omit<Decided, 'editedArgs' | 'expired'> },
): ReceiptClaims {
  const { record } = subject;
  const entry = decided.kind === 'decision' ? decided.decision : decided.vote;
  const edited = decided.kind === 'decision' && decided.decision.status === 'approved' && decided.decision.editedArgs !== undefined;
  const runs = edited ? decided.decision.editedArgs : record.input;
  return {
    iss: subject.issuer,
    sessionId: subject.sessionKey,
    runId: record.runId,
    interruptId: record.id,
    toolCallId: record.toolCallId,
    tool: record.toolName,
    kind: decided.kind,
    decision: entry.status,
    ...(decided.kind === 'decision' && decided.decision.expired ? { expired: true as const } : {}),
    ...(entry.reason !== undefined ? { reason: entry.reason } : {}),
    argsDigest: argsDigest(runs),
    ...(edited ? { originalArgsDigest: argsDigest(record.input) } : {}),
    decidedBy: deciderOf(entry.by),
    channel: channelOf(entry.by),
    decidedAt: subject.decidedAt,
    ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
    nonce: randomUUID(),
  };
}
