// A pause for a person and what they decided, as the log records them (docs/hitl.md;
// docs/approvals.md): the interrupt as it opened, its escalation, the decision, a quorum's votes,
// the grants an approval came with, and who decided through which path.
import type { JsonObject } from './messages';

/** Why a run paused for a human. */
export type InterruptReason = 'tool_call' | 'input_required' | 'confirmation';
export type DecisionKind = 'approve' | 'reject' | 'edit';

/** What the tool looked up for the approver when the pause opened (docs/hitl.md, "Approval context"). */
export interface ApprovalFacts {
  /** Label and value, in the order to show them: "Customer" · "Ada Lovelace". */
  facts: { label: string; value: string }[];
  /** What the approver should weigh before approving, in a sentence. */
  risk?: string;
}

/** A pause for a human decision, as recorded when it opens. */
export interface InterruptRecord {
  id: string;
  reason: InterruptReason;
  toolCallId: string;
  toolName: string;
  /** The arguments the model proposed. */
  input: unknown;
  /** One line for the human: the description, or a line generated from the call. */
  message: string;
  /** What the policy's describe() said about the call; absent when it has none (docs/hitl.md). */
  description?: string;
  /** What the tool's context() looked up for the approver; absent when it has none or found nothing. */
  context?: ApprovalFacts;
  /** JSON Schema of an acceptable response: {approved, reason?, editedArgs?, payload?}. */
  responseSchema: JsonObject;
  allowedDecisions: DecisionKind[];
  /** When it expires; an escalation moves it (the view's record carries the latest, docs/approvals.md). */
  expiresAt?: string;
  /** What happens when it expires (after its last escalation, when it escalates). */
  onExpire: 'deny' | 'approve';
  /**
   * Who may approve or reject it (docs/security.md, "Approvers"): any key holder, or the keys a
   * list names (`key:<name-or-group>`, docs/approvals.md, "Quorum and separation of duties");
   * absent: the session's owner.
   */
  approvers?: 'key-holders' | string[];
  /** How many distinct approvers must approve; absent: one. */
  quorum?: number;
  /** The session's owner (who asked) may not approve or reject it, only withdraw it; absent: they may. */
  requesterMayApprove?: false;
  /** `quorum`: as many rejections as approvals are needed to reject; absent: the first rejection rejects. */
  rejectOn?: 'quorum';
  /** Who is told next, and for how much longer it waits, each time it expires before its last escalation. */
  escalation?: EscalationPolicy;
  /** When a reminder is due (expiresAt less the tool's remindBefore); one `interrupt_reminded` follows. */
  remindAt?: string;
  /** Hash of the tool's input and approval schemas when it paused; a resume against a changed tool is refused. */
  schemaHash: string;
  /** The run that paused. */
  runId: string;
  /** The agent whose tool this is (a subagent's name when raised inside one). */
  agent: string;
  /** The delegated task the call belongs to; absent for the root thread. */
  scope?: string;
  /** A question's link the person is to open (an MCP server's URL-mode elicitation, docs/mcp.md). */
  url?: string;
  /** A question whose decline goes back to its tool, which runs again and is told (an MCP elicitation, docs/mcp.md). */
  declineToTool?: true;
  /**
   * What the asking tool needs to take the call up where it paused, handed back with the answer
   * (a 2026-07-28 MCP server's requestState and the answers of its round, docs/mcp.md). The tool's own; no wire shows it.
   */
  resume?: JsonObject;
  /**
   * The span of the run that paused, as a W3C traceparent: the approval span links to it when the
   * decision comes, in whichever process (docs/observability.md); absent with telemetry off.
   */
  traceparent?: string;
}

export type DecisionStatus = 'approved' | 'denied' | 'cancelled';

/** An interrupt's escalation, as its tool's toolApproval declared it when it opened (docs/approvals.md). */
export interface EscalationPolicy {
  /** Who is told at each escalation: e-mail addresses, `key:<name>`; recorded, and told by the notice channels. */
  to: string[];
  /** How long each escalation extends the wait, from the moment it escalates. */
  extendByMs: number;
  /** How many escalations before `onExpire` applies. */
  times: number;
}

/** What an approver allows from now on, with an approval (docs/approvals.md, "Scoped grants"). */
export type GrantScope = 'session' | 'time' | 'arguments';

/**
 * A standing approval of one tool within one session: its later calls run without a pause while
 * it holds — for the session, until `expiresAt`, or when their arguments match `match`.
 */
export interface Grant {
  id: string;
  toolName: string;
  /** The agent whose tool it is (a subagent's name for its own tools). */
  agent: string;
  scope: GrantScope;
  /** A 'time' grant's end. */
  expiresAt?: string;
  /** An 'arguments' grant's values: a call whose arguments deep-equal these for these keys is inside it. */
  match?: JsonObject;
  by: DecisionActor;
  /** The approval it came with. */
  fromInterruptId: string;
}

/**
 * Who decided, through which path; the audit trail. The source and credential are the
 * server's own findings (docs/security.md, "What each credential can do"); `client` is what the
 * client said it is (x-stackbone-client), kept as said and never trusted.
 */
export interface DecisionActor {
  /**
   * `hitl`: the HTTP API with a key in a header (the CLI, scripts); `studio`: the app with a key
   * exchanged for its cookie; `queue`: cancelled by a queued message sent now
   * (docs/turn-control.md, "Queue"). `cli` appears only in logs written before the source was
   * derived from the credential. `mcp`: answered in an MCP client's elicitation (docs/mcp.md).
   * `link`: a signed one-click link from a notification (docs/approvals.md, "Notifications and
   * one-click links").
   */
  source: 'agui' | 'hitl' | 'cli' | 'studio' | 'expiry' | 'server' | 'queue' | 'mcp' | 'responses' | 'link';
  ownerId?: string;
  /**
   * What proved who decided: an API key, a browser's own identity, the local owner (open dev
   * mode), a signed link the server minted for a configured approver and verified, or a user
   * signed in (`user`) or not signed up yet (`guest`) (docs/users-and-roles.md).
   */
  credential?: 'local' | 'key' | 'browser' | 'link' | 'user' | 'guest';
  /** A user's roles as they were when they decided: what `approvers: ['role:…']` matched. */
  roles?: readonly string[];
  /** The client's own word for itself, e.g. `cli`; a label, never a permission. */
  client?: string;
  /** The name of the key that decided, as STACKBONE_API_KEYS labelled it then (`alice`); for people to read, never a permission. */
  keyName?: string;
  /**
   * Whom the link that decided was minted for (`email:desk@example.com`, `slack`): bound into
   * the link's signature by the server, so — unlike `client` — the server's own finding.
   */
  recipient?: string;
}

/** One approver's vote on an interrupt that needs more than one (docs/approvals.md, "Quorum and separation of duties"). */
export interface Vote {
  status: 'approved' | 'denied';
  reason?: string;
  /** approvalSchema data, validated as a decision's is. */
  payload?: unknown;
  by: DecisionActor;
  /** The signed receipt of this vote (docs/approvals.md, "Signed receipts"). */
  receipt?: string;
}

export interface Decision {
  status: DecisionStatus;
  /** Full replacement of the arguments (approve only). */
  editedArgs?: unknown;
  /** approvalSchema data (approve only). */
  payload?: unknown;
  reason?: string;
  /** True when the interrupt expired and this is its default action. */
  expired?: boolean;
  by: DecisionActor;
  /** On an interrupt with a quorum: every vote cast on it, in order, this decision's own last. */
  votes?: Vote[];
  /** The signed receipt of this decision (a compact JWS, docs/approvals.md, "Signed receipts"); absent in logs written before receipts. */
  receipt?: string;
}
