// The out-of-band decision API's shapes (docs/hitl.md, "Out of band"): what GET /api/hitl
// lists and how it pages, and the actions of POST /api/hitl/{id}/{action}. Studio's inbox reads them.
import type { ApprovalFacts, DecisionActor, DecisionKind, InterruptReason, Vote } from '../store/pauses';
import type { JsonObject } from '../store/messages';

/** The actions of POST /api/hitl/{id}/{action}. */
export const HITL_ACTIONS = ['approve', 'reject', 'cancel'] as const;
export type HitlAction = (typeof HITL_ACTIONS)[number];

/**
 * A vote as its reader is shown it (docs/approvals.md, "Votes"): a key holder reads who voted
 * (`by`, never an owner id); anyone else reads how it went and nothing of who.
 */
export interface ShownVote {
  status: Vote['status'];
  reason?: string;
  by?: Pick<DecisionActor, 'source' | 'credential' | 'keyName' | 'recipient' | 'client'>;
  /** The reader cast it (the same person: their cookie, their key or their link): the card offers them no second vote. */
  mine?: true;
}

/** An open decision as GET /api/hitl lists it. */
export interface InboxItem {
  /** The interrupt's id. */
  id: string;
  /** The session as its owner names it (a key holder deciding a browser's call sees that browser's key). */
  sessionId: string;
  /** False for a browser's call kept for key holders: the conversation is that browser's, not this desk's. */
  ownSession: boolean;
  agent: string;
  reason: InterruptReason;
  toolCallId: string;
  toolName: string;
  /** The arguments the model proposed. */
  args: unknown;
  message: string;
  description?: string;
  /** What the tool looked up for the approver (docs/hitl.md, "Approval context"). */
  context?: ApprovalFacts;
  /** JSON Schema of an acceptable response (docs/hitl.md, "Decision data"). */
  responseSchema: JsonObject;
  allowedDecisions: DecisionKind[];
  /** A question's link the person is to open (an MCP server's URL-mode elicitation, docs/mcp.md). */
  url?: string;
  expiresAt: string | null;
  createdAt: string;
  /** How many distinct approvers must approve, when more than one (docs/approvals.md, "Quorum and separation of duties"). */
  quorum?: number;
  /** The votes cast so far, in order, with `quorum`. */
  votes?: ShownVote[];
  /** The session's owner may not approve or reject it, only withdraw it (docs/approvals.md). */
  requesterMayApprove?: false;
}

/**
 * Whose open decisions GET /api/hitl lists (`?filter=`, docs/hitl.md, "Paging the inbox"): `mine`, those of the
 * caller's own sessions; `key-holders`, the others' a key holder may decide (a browser's kept for key holders, one
 * kept for a list of keys); `all` (the default), both — the caller's own first.
 */
export const INBOX_FILTERS = ['mine', 'key-holders', 'all'] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

/** How many decisions a page of GET /api/hitl holds: `?limit=` when given, at most `max`. */
export const INBOX_PAGE_SIZE = { default: 50, max: 200 } as const;

/** GET /api/hitl's answer: a page of the caller's open decisions, expired ones left out. */
export interface InboxList {
  interrupts: InboxItem[];
  /** `?cursor=` for the next page; null when this page is the last. */
  nextCursor: string | null;
}
