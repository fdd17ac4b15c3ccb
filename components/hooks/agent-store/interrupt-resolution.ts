// A decision on one interrupt, as the person stages it, turned into the AG-UI resume entry
// the server expects (docs/hitl.md): `{approved, reason?, editedArgs?, payload?}` for a tool
// approval, the answer itself for requested input. Pure functions; the store keeps the state.
import { isInterruptExpired, type Interrupt, type ResumeEntry } from '@ag-ui/client';
import { asSchema, schemaProblems } from '../json-schema';

export type DecisionKind = 'approve' | 'reject' | 'edit';

/** What an interrupt asks for: a tool call to approve, an answer to a question, or anything else. */
type InterruptKind = 'tool-approval' | 'input' | 'generic';

export interface ResolveOptions {
  /** A full replacement of the tool's arguments (approve only; needs the 'edit' decision). */
  editedArgs?: Record<string, unknown>;
  /** Approval data (the tool's approvalSchema), or the answer to an `input_required` interrupt. */
  payload?: unknown;
  /** Why it was rejected; the model is told. */
  reason?: string;
  /** Approve, and allow later calls of the tool in this session (docs/approvals.md, "Scoped grants"). */
  grant?: { scope: 'session' } | { scope: 'time'; for: string };
}

/** What the person decided for one interrupt, staged until the whole batch is decided. */
export type InterruptResolution =
  | { kind: 'approve' | 'edit'; options: ResolveOptions; entry: ResumeEntry; problems: string[] }
  | { kind: 'reject'; options: ResolveOptions; entry: ResumeEntry; problems: string[] }
  | { kind: 'cancel'; entry: ResumeEntry; problems: string[] };

/** The AG-UI interrupt's seed fields, read from metadata (HttpAgent's 1.0 shape keeps them there). */
export interface InterruptDetails {
  kind: InterruptKind;
  toolName: string | undefined;
  args: unknown;
  description: string | undefined;
  allowedDecisions: DecisionKind[];
  /** The subagent whose tool this is. */
  agent: string | undefined;
  /** Only a key holder (or a key a list names) may approve or reject it; the session's owner may cancel (docs/security.md, "Approvers"). */
  keyHoldersDecide: boolean;
  /** What the tool looked up for the approver (docs/hitl.md, "Approval context"): facts and a risk note. */
  context: { facts: { label: string; value: string }[]; risk?: string } | undefined;
  /** Who may decide, in words, when the tool names them (`approvers`): "someone on the team", "a person with the role finance". */
  approvers: string | undefined;
  /** A call that needs several approvers: how many, and who voted so far (docs/approvals.md, "Quorum and separation of duties"). */
  /** The votes so far; a voter's `name` only where the server shows who voted (to key holders: docs/approvals.md, "Votes"). */
  quorum: { required: number; votes: { status: 'approved' | 'denied'; name?: string; mine?: true }[] } | undefined;
  /** The session's owner asked for it and may not approve or reject it, only withdraw it (`requesterMayApprove: false`). */
  requesterExcluded: boolean;
  /** A question's link to open (an MCP server's URL-mode elicitation, docs/mcp.md); only an http(s) one is kept. */
  url: string | undefined;
}

export function interruptDetails(interrupt: Interrupt): InterruptDetails {
  const metadata = (interrupt.metadata ?? {}) as Record<string, unknown>;
  const allowed = Array.isArray(metadata.allowedDecisions)
    ? metadata.allowedDecisions.filter((kind): kind is DecisionKind => kind === 'approve' || kind === 'reject' || kind === 'edit')
    : ['approve' as const, 'reject' as const];
  return {
    kind: interrupt.reason === 'tool_call' ? 'tool-approval' : asksForInput(interrupt) ? 'input' : 'generic',
    toolName: typeof metadata.toolName === 'string' ? metadata.toolName : undefined,
    args: metadata.args,
    description: typeof metadata.description === 'string' ? metadata.description : interrupt.message,
    allowedDecisions: allowed,
    agent: typeof metadata.agent === 'string' ? metadata.agent : undefined,
    keyHoldersDecide: metadata.approvers === 'key-holders' || Array.isArray(metadata.approvers),
    approvers: approversOf(metadata.approvers),
    context: contextOf(metadata.context),
    quorum: quorumOf(metadata),
    requesterExcluded: metadata.requesterMayApprove === false,
    url: typeof metadata.url === 'string' && /^https?:\/\//i.test(metadata.url) ? metadata.url : undefined,
  };
}

/** The quorum and the votes so far, as the server sends them in the interrupt's metadata; a voter is named by their key's name. */
function quorumOf(metadata: Record<string, unknown>): InterruptDetails['quorum'] {
  if (typeof metadata.quorum !== 'number') return undefined;
  const votes = (Array.isArray(metadata.votes) ? metadata.votes : []).flatMap((vote: { status?: unknown; by?: Record<string, unknown>; mine?: unknown }) => {
    const status = vote?.status;
    if (status !== 'approved' && status !== 'denied') return [];
    const mine = vote.mine === true;
    return [{ status: status as 'approved' | 'denied', ...(mine ? { name: 'you', mine } : vote.by ? { name: voterName(vote.by) } : {}) }];
  });
  return { required: metadata.quorum, votes };
}

/** The approval context as the server sent it; undefined when there is none or it is not one. */
function contextOf(context: unknown): InterruptDetails['context'] {
  if (typeof context !== 'object' || context === null) return undefined;
  const { facts, risk } = context as { facts?: unknown; risk?: unknown };
  const shown = (Array.isArray(facts) ? facts : []).flatMap((fact: { label?: unknown; value?: unknown }) =>
    typeof fact?.label === 'string' && typeof fact.value === 'string' ? [{ label: fact.label, value: fact.value }] : [],
  );
  if (shown.length === 0 && typeof risk !== 'string') return undefined;
  return { facts: shown, ...(typeof risk === 'string' ? { risk } : {}) };
}

/** The tool's `approvers` in words (docs/approvals.md): key holders are the team; a list names roles, keys, members. */
function approversOf(approvers: unknown): string | undefined {
  if (approvers === 'key-holders') return 'someone on the team';
  if (!Array.isArray(approvers)) return undefined;
  const words = approvers.flatMap((entry) => {
    if (typeof entry !== 'string') return [];
    if (entry === 'members') return ['any signed-up member'];
    if (entry.startsWith('role:')) return [`a person with the role ${entry.slice(5)}`];
    return [entry.replace(/^key:/, '')];
  });
  return words.length ? words.join(' or ') : undefined;
}

/** A voter as people know them: the key's name, the address a link was mailed to, the local owner. */
function voterName(by: Record<string, unknown>): string {
  if (typeof by.keyName === 'string') return by.keyName;
  if (typeof by.recipient === 'string') return by.recipient.replace(/^email:/, '');
  if (by.credential === 'user') return 'a team member';
  return by.credential === 'local' ? 'you' : 'a key holder';
}

/** True when the interrupt asks for an answer (requestInput) rather than an approval. */
export function asksForInput(interrupt: Interrupt): boolean {
  return interrupt.reason === 'input_required';
}

/**
 * The schema of one part of a tool approval's response (`editedArgs`, `payload`) for one
 * decision. A responseSchema with one branch per decision (`oneOf`, told apart by
 * `approved`) has a part per branch; a single object has one for both (docs/hitl.md).
 */
export function responsePart(interrupt: Interrupt, part: 'editedArgs' | 'payload' | 'grant', approved = true) {
  const schema = asSchema(interrupt.responseSchema);
  const branch = Array.isArray(schema?.oneOf)
    ? schema.oneOf.map(asSchema).find((candidate) => asSchema(candidate?.properties?.approved)?.const === approved)
    : schema;
  return asSchema(branch?.properties?.[part]);
}

/** The grant scopes an approval may carry: those its responseSchema offers (the tool's `grants`). */
export function grantScopes(interrupt: Interrupt): string[] {
  const grant = asSchema(responsePart(interrupt, 'grant', true));
  const branches = Array.isArray(grant?.oneOf) ? grant.oneOf.map(asSchema) : [];
  return branches.flatMap((branch) => {
    const scope = asSchema(branch?.properties?.scope)?.const;
    return typeof scope === 'string' ? [scope] : [];
  });
}

/**
 * Whether a 'time' grant of `ms` is within the longest the tool allows: the `maximum` its
 * responseSchema gives `for` (the tool's maxGrantTime; docs/approvals.md, "Scoped grants").
 */
export function timeGrantFits(interrupt: Interrupt, ms: number): boolean {
  const grant = asSchema(responsePart(interrupt, 'grant', true));
  const branches = Array.isArray(grant?.oneOf) ? grant.oneOf.map(asSchema) : [];
  const time = branches.find((branch) => asSchema(branch?.properties?.scope)?.const === 'time');
  const maximum = asSchema(time?.properties?.for)?.maximum;
  return time !== undefined && (typeof maximum !== 'number' || ms <= maximum);
}

export function stageDecision(interrupt: Interrupt, approved: boolean, options: ResolveOptions = {}): InterruptResolution {
  const clean = withoutUndefined(options);
  if (asksForInput(interrupt)) {
    const problems = approved
      ? schemaProblems(asSchema(interrupt.responseSchema) ?? {}, clean.payload)
      : // AG-UI carries only the answer for requested input: a rejection cannot be expressed
        // (the server would read `{approved: false}` as the answer). Cancel ends the turn instead.
        ['A question can be answered or cancelled, not rejected.'];
    return {
      kind: approved ? 'approve' : 'reject',
      options: clean,
      entry: { interruptId: interrupt.id, status: 'resolved', payload: clean.payload },
      problems: [...expiryProblems(interrupt), ...problems],
    };
  }
  const { allowedDecisions } = interruptDetails(interrupt);
  const problems = [...expiryProblems(interrupt)];
  if (clean.editedArgs !== undefined) {
    if (!approved) problems.push('A rejection cannot carry edited arguments.');
    else if (!allowedDecisions.includes('edit')) problems.push('This tool does not allow edited arguments.');
    else problems.push(...schemaProblems(responsePart(interrupt, 'editedArgs') ?? {}, clean.editedArgs).map((p) => `Arguments: ${p}`));
  }
  // The decision's data, checked against that decision's schema.
  const payloadSchema = responsePart(interrupt, 'payload', approved);
  if (payloadSchema) problems.push(...schemaProblems(payloadSchema, clean.payload ?? {}).map((p) => `Details: ${p}`));
  const payload = approved
    ? { approved: true, ...pick(clean, 'editedArgs'), ...pick(clean, 'payload'), ...pick(clean, 'grant') }
    : { approved: false, ...pick(clean, 'reason'), ...pick(clean, 'payload') };
  return {
    kind: approved ? (clean.editedArgs !== undefined ? 'edit' : 'approve') : 'reject',
    options: clean,
    entry: { interruptId: interrupt.id, status: 'resolved', payload },
    problems,
  };
}

/** Whether a staged resolution is a decision ready to send: made, and with nothing wrong in it. */
export function isDecided(resolution: InterruptResolution | null | undefined): boolean {
  return resolution != null && resolution.problems.length === 0;
}

/**
 * Whether a call waits on someone other than this viewer: kept for the team and the viewer is
 * not of it, or one its requester may not approve, or one the viewer has cast their vote on
 * already (a quorum). The card, the banner, the status pill and the composer say so alike.
 */
export function waitsOnOthers(interrupt: Pick<InterruptDetails, 'keyHoldersDecide' | 'requesterExcluded' | 'quorum'>, viewer: { keyHolder: boolean }): boolean {
  return (interrupt.keyHoldersDecide && !viewer.keyHolder) || interrupt.requesterExcluded || Boolean(interrupt.quorum?.votes.some((vote) => vote.mine));
}

export function stageCancel(interrupt: Interrupt): InterruptResolution {
  return { kind: 'cancel', entry: { interruptId: interrupt.id, status: 'cancelled' }, problems: [] };
}

function expiryProblems(interrupt: Interrupt): string[] {
  // HttpAgent refuses to send anything but a cancel for an expired interrupt, and the server
  // has taken its default action by then.
  return isInterruptExpired(interrupt) ? [`Expired at ${interrupt.expiresAt}; it can only be cancelled.`] : [];
}

function withoutUndefined(options: ResolveOptions): ResolveOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined && value !== '')) as ResolveOptions;
}

function pick<K extends keyof ResolveOptions>(options: ResolveOptions, key: K): Partial<ResolveOptions> {
  return options[key] === undefined ? {} : { [key]: options[key] };
}
