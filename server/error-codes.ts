// The server's one error vocabulary (docs/errors.md is rendered from this file): every code a
// client can be answered with — a request refused before anything was written, or a run that
// failed after it started — with its HTTP status, how the AG-UI wire answers it, and the code
// the OpenAI and Anthropic wires answer where their clients expect their own. The runtime's
// Refusal and the transport's HttpError take a code from here and their status from here; the
// wires read the mappings and invent none. Below every floor: it imports nothing.

export interface ErrorAnswer {
  /** The HTTP status of a request/response answer (the chat wires' status for a failed turn too). */
  status: number;
  /** On POST /api/agents/{name} (AG-UI): a RUN_ERROR event with this code, or the HTTP answer before any stream. */
  agUi: 'RUN_ERROR' | 'HTTP';
  /** The code the OpenAI and Anthropic wires answer instead, where their clients expect their own. */
  chat?: string;
  /** When the server answers it. */
  when: string;
}

const RUN_ERROR = 'RUN_ERROR';
const HTTP = 'HTTP';

/** The request itself, refused before the runtime sees it (HttpError, server/http/errors.ts). */
const REQUEST_ERRORS = {
  invalid_json: { status: 400, agUi: HTTP, when: 'the body is empty or not JSON' },
  json_too_deep: { status: 400, agUi: HTTP, when: 'the body nests deeper than the server reads' },
  json_array_too_long: { status: 400, agUi: HTTP, when: 'an array in the body is longer than the server reads' },
  unsupported_media_type: { status: 415, agUi: HTTP, when: 'the body is not sent as application/json' },
  attachment_type: { status: 415, agUi: HTTP, when: 'an attachment whose bytes are not a PNG, JPEG, GIF or WebP image or a PDF (the file is named)' },
  attachment_too_large: { status: 413, agUi: HTTP, when: 'an attachment over STACKBONE_MAX_IMAGE_BYTES (5 MB) or STACKBONE_MAX_PDF_BYTES (10 MB)' },
  attachment_storage_full: {
    status: 413,
    agUi: HTTP,
    when: 'an attachment that would take its owner past the bytes it may keep (STACKBONE_MAX_ATTACHMENT_BYTES_PER_OWNER, 50 MB, for a guest)',
  },
  too_many_attachments: { status: 400, agUi: HTTP, when: 'a message naming more files than STACKBONE_MAX_ATTACHMENTS_PER_MESSAGE (10)' },
  upload_timeout: {
    status: 408,
    agUi: HTTP,
    when: 'an upload that sent nothing for STACKBONE_UPLOAD_IDLE_SECONDS (15) or took longer than STACKBONE_UPLOAD_SECONDS (120)',
  },
  body_too_large: { status: 413, agUi: HTTP, chat: 'request_too_large', when: 'the body is over STACKBONE_MAX_BODY_BYTES' },
  invalid_request: { status: 400, agUi: HTTP, when: 'a body or query of the wrong shape (the field at fault is named)' },
  invalid_thread_id: { status: 400, agUi: HTTP, when: 'a threadId that is not 1 to 256 printable ASCII characters without spaces' },
  invalid_run_id: { status: 400, agUi: HTTP, when: 'a runId that is not 1 to 256 printable ASCII characters without spaces' },
  invalid_session_key: { status: 400, agUi: HTTP, when: 'an x-stackbone-session header that is not 1 to 256 printable ASCII characters without spaces' },
  invalid_cursor: { status: 400, agUi: HTTP, when: 'an offset, Last-Event-ID, frontier or inbox cursor that is not a cursor this server sent' },
  no_new_input: { status: 400, agUi: HTTP, when: 'a chat-wire request on a session that brings nothing new' },
  unauthorized: { status: 401, agUi: HTTP, chat: 'invalid_api_key', when: 'no API key, or one that is not valid (keys configured)' },
  not_a_wake: { status: 401, agUi: HTTP, when: 'a POST /api/wake that is not a queue delivery of a wake this server signed (docs/deploy.md, "Due work")' },
  cross_origin: { status: 403, agUi: HTTP, when: 'a cookie-authenticated request from another site' },
  open_dev_mode_remote: { status: 403, agUi: HTTP, when: 'a request to a server in open dev mode addressed to a host other than loopback' },
  too_many_streams: { status: 429, agUi: HTTP, when: 'the identity has STACKBONE_MAX_STREAMS_PER_OWNER streams open already' },
  too_many_address_streams: { status: 429, agUi: HTTP, when: 'the browsers at one address hold STACKBONE_MAX_STREAMS_PER_ADDRESS streams open already' },
  too_many_address_runs: { status: 429, agUi: HTTP, when: 'the browsers at one address have STACKBONE_MAX_RUNS_PER_ADDRESS turns running already' },
  too_many_address_requests: {
    status: 429,
    agUi: HTTP,
    when: '`npm start`: STACKBONE_REQUESTS_WAITING_PER_ADDRESS (256) requests from one address wait to be started already (with Retry-After)',
  },
  too_many_identities: {
    status: 429,
    agUi: HTTP,
    when: 'an address was given STACKBONE_MAX_NEW_IDENTITIES_PER_ADDRESS guests this hour (with Retry-After)',
  },
  accounts_unavailable: {
    status: 503,
    agUi: HTTP,
    when: 'an account endpoint (/api/auth/*) on a production server with no BETTER_AUTH_SECRET or STACKBONE_SECRET',
  },
  admin_required: { status: 403, agUi: HTTP, when: 'giving or taking a role, or listing the team, without being an admin (docs/users-and-roles.md)' },
  too_many_sign_ins: { status: 429, agUi: HTTP, when: 'too many wrong API keys from this address (with Retry-After)' },
  too_many_uploads: {
    status: 429,
    agUi: HTTP,
    when: 'a guest uploaded STACKBONE_MAX_UPLOADS_PER_HOUR (20) files in the last hour (with Retry-After)',
  },
  too_many_address_uploads: {
    status: 429,
    agUi: HTTP,
    when: 'the browsers of one address uploaded STACKBONE_MAX_UPLOAD_BYTES_PER_ADDRESS (100 MB) of files this hour, together (with Retry-After)',
  },
  too_many_uploads_in_flight: { status: 429, agUi: HTTP, when: 'the identity has STACKBONE_MAX_UPLOADS_IN_FLIGHT (4) uploads under way already' },
  method_not_allowed: { status: 405, agUi: HTTP, when: 'a known path with another method (with Allow)' },
  database_unavailable: { status: 503, agUi: HTTP, when: 'GET /api/health: the database does not answer (the report’s `error`)' },
  not_found: { status: 404, agUi: HTTP, when: 'no such thing for this caller: `details.what` says which (the table below)' },
} as const satisfies Record<string, ErrorAnswer>;

/** The runtime refuses, having written nothing (Refusal, server/runtime/errors). */
const REFUSALS = {
  agent_mismatch: { status: 409, agUi: RUN_ERROR, when: 'the session belongs to another agent' },
  session_busy: { status: 409, agUi: RUN_ERROR, when: 'another run holds the session (or it changed while this one started): try again' },
  interrupts_pending: { status: 409, agUi: RUN_ERROR, chat: 'approval_pending', when: 'a run without a resume on a session waiting on a human decision' },
  tool_result_missing: { status: 409, agUi: RUN_ERROR, when: 'the session waits for a frontend tool result' },
  unknown_tool_call: { status: 400, agUi: RUN_ERROR, when: 'a tool result for a call that is not waiting for a client result' },
  invalid_message: { status: 400, agUi: RUN_ERROR, when: 'a message the client may not send, or one without the text it needs' },
  invalid_state: { status: 400, agUi: RUN_ERROR, when: 'a shared-state value that fails its schema (`details.path`)' },
  invalid_tool: { status: 400, agUi: RUN_ERROR, when: 'a client tool that is malformed or shadows one of the agent' },
  too_many_messages: { status: 400, agUi: RUN_ERROR, when: 'a request with more messages than one request may carry' },
  too_many_tools: { status: 400, agUi: RUN_ERROR, when: 'a request offering more client tools than one request may' },
  invalid_id: {
    status: 400,
    agUi: HTTP,
    when: 'an id the client chose (a message’s, guidance’s, a `retryId`, a fork’s `atMessageId`) not of 1 to 256 printable ASCII characters (`details.field`)',
  },
  message_too_long: { status: 413, agUi: HTTP, when: 'a message whose text is longer than STACKBONE_MAX_MESSAGE_CHARS (100,000 characters)' },
  thread_full: {
    status: 409,
    agUi: RUN_ERROR,
    when: 'a new message that would take the thread’s log past STACKBONE_MAX_THREAD_BYTES (8 MB): start a new thread, or fork this one earlier',
  },
  run_id_reused: { status: 409, agUi: RUN_ERROR, when: 'the runId is the thread’s last run’s (a continuation needs a fresh one)' },
  parent_run_mismatch: { status: 409, agUi: RUN_ERROR, when: 'parentRunId names a run other than the one that paused' },
  nothing_to_retry: { status: 409, agUi: RUN_ERROR, when: 'a retry on a thread whose last run did not fail' },
  retry_with_input: { status: 400, agUi: RUN_ERROR, when: 'a retry that brings new messages or state' },
  thread_required: {
    status: 400,
    agUi: RUN_ERROR,
    when: 'a stateless AG-UI run (no threadId) carrying what only a durable thread can take: a tool result to go on from, seeded state, a decision, a retry (`details.needs`)',
  },
  unknown_model: { status: 400, agUi: RUN_ERROR, when: 'a turn asking for a model its agent does not offer (`details.models` lists those it does)' },
  resume_incomplete: { status: 400, agUi: RUN_ERROR, when: 'a resume that does not address every open interrupt' },
  resume_duplicate: { status: 400, agUi: RUN_ERROR, when: 'an interrupt addressed twice in one resume' },
  resume_invalid: { status: 400, agUi: RUN_ERROR, when: 'a malformed decision, a rejection carrying edits, or a field that is not part of a decision' },
  interrupt_other_thread: { status: 400, agUi: RUN_ERROR, when: 'a decision for an interrupt of another thread' },
  interrupt_expired: { status: 409, agUi: RUN_ERROR, when: 'the interrupt expired and took its default action' },
  interrupt_already_decided: { status: 409, agUi: RUN_ERROR, when: 'the interrupt was decided before, differently' },
  tool_schema_changed: { status: 409, agUi: RUN_ERROR, when: 'the tool’s input or approval schema changed since the pause' },
  edit_not_allowed: { status: 400, agUi: RUN_ERROR, when: 'edited arguments for a tool that does not allow edits' },
  edited_args_invalid: { status: 400, agUi: RUN_ERROR, when: 'edited arguments that fail the tool’s input schema' },
  edit_needs_quorum: {
    status: 403,
    agUi: RUN_ERROR,
    when: 'edited arguments that need more approvers than the request was opened for (an edit is one approver’s)',
  },
  payload_invalid: { status: 400, agUi: RUN_ERROR, when: 'decision data or an answer that fails its schema' },
  approver_required: {
    status: 403,
    agUi: RUN_ERROR,
    when: 'an approval from a browser of a call kept for key holders, from a key a call’s approvers list does not name, or from a link whose address is bound to no approver where a person must decide',
  },
  requester_may_not_approve: {
    status: 403,
    agUi: RUN_ERROR,
    when: 'an approval or rejection by the owner of the session that asked, of a call declared `requesterMayApprove: false` (they may cancel)',
  },
  already_voted: { status: 409, agUi: RUN_ERROR, when: 'a second vote by the same approver on a call that needs a quorum' },
  quorum_pending: {
    status: 409,
    agUi: RUN_ERROR,
    when: 'a chat resume whose approval would be a vote short of the call’s quorum (vote from Studio, the CLI, /api/hitl or a link)',
  },
  link_invalid: {
    status: 403,
    agUi: HTTP,
    when: 'a one-click decision link that is malformed, signed with another key, or only opens the request (docs/approvals.md)',
  },
  link_expired: { status: 410, agUi: HTTP, when: 'a one-click decision link past its expiry' },
  link_arguments_changed: { status: 409, agUi: HTTP, when: 'a one-click decision link minted for arguments other than those the call would run with' },
  grant_not_allowed: {
    status: 400,
    agUi: RUN_ERROR,
    when: 'a grant with a rejection or an answer, or in a scope the tool does not allow (its `toolApproval.grants`; never with a quorum)',
  },
  grant_invalid: {
    status: 400,
    agUi: RUN_ERROR,
    when: 'a grant of the wrong shape: its scope, its `for` (a positive duration, at most the tool’s `maxGrantTime`), or its `match` arguments',
  },
  not_running: { status: 409, agUi: RUN_ERROR, when: 'guidance for a session with no run in progress' },
  other_run: { status: 409, agUi: RUN_ERROR, when: 'guidance naming a run that is not the one in progress' },
  too_many_steers: { status: 429, agUi: RUN_ERROR, when: 'more guidance for one run than STACKBONE_MAX_STEERS_PER_RUN' },
  queue_full: { status: 429, agUi: RUN_ERROR, when: 'more queued messages than STACKBONE_MAX_QUEUED_MESSAGES' },
  too_many_paused_threads: {
    status: 429,
    agUi: RUN_ERROR,
    when: 'a guest already waits on STACKBONE_MAX_PAUSED_THREADS threads paused for a decision',
  },
  already_sent: { status: 409, agUi: RUN_ERROR, when: 'queueing a message that is in the thread already' },
  fork_point_invalid: {
    status: 400,
    agUi: RUN_ERROR,
    when: 'an edit-and-resend at a message that is not the user’s, or a regenerate at one that is not an assistant reply (docs/time-travel.md)',
  },
  thread_exists: { status: 409, agUi: RUN_ERROR, when: 'a fork into a threadId the caller has a thread of already' },
  already_undone: {
    status: 409,
    agUi: RUN_ERROR,
    when: 'an undo of a dropped effect that was asked for already, in this thread, or in another of its lineage (`details.threadId` names it; docs/time-travel.md)',
  },
  not_queued: {
    status: 404,
    agUi: RUN_ERROR,
    when: 'a queue change for a message that went out or was removed (or a request waiting on one that was removed)',
  },
} as const satisfies Record<string, ErrorAnswer>;

/** A run that started, and failed: its stream ends with it, and its log with run_failed. */
const RUN_FAILURES = {
  model_error: {
    status: 500,
    agUi: RUN_ERROR,
    when: 'the model call failed (or ran past the agent’s `stepTimeout`: the message says it timed out), tried again as the agent’s `maxRetries` allow and on its `fallbackModels` (the details are in the server’s log, under the reference in the message and `details.reference`; `details.retryable`: the provider called it passing, so a Retry may go through)',
  },
  max_steps_exceeded: { status: 500, agUi: RUN_ERROR, when: 'the agent took its most model steps without finishing' },
  lease_lost: { status: 409, agUi: RUN_ERROR, when: 'another run took the session over (this server stalled past its lease)' },
  agent_removed: { status: 500, agUi: RUN_ERROR, when: 'recovery found the run’s agent gone from the server' },
  message_queued: { status: 409, agUi: RUN_ERROR, when: 'a request stopped waiting for its queued message, which goes out later (`details.runId`)' },
  internal_error: { status: 500, agUi: RUN_ERROR, when: 'a fault of the server, logged; the answer says no more (before a stream: HTTP 500)' },
} as const satisfies Record<string, ErrorAnswer>;

/** Every code, in three groups: docs/errors.md renders them so. */
export const ERROR_GROUPS = { request: REQUEST_ERRORS, refusal: REFUSALS, run: RUN_FAILURES } as const;
export const ERROR_CODES: Record<ErrorCode, ErrorAnswer> = { ...REQUEST_ERRORS, ...REFUSALS, ...RUN_FAILURES };

export type ErrorCode = keyof typeof REQUEST_ERRORS | keyof typeof REFUSALS | keyof typeof RUN_FAILURES;
/** What a run that started may end with (a run-error part, a run_failed event). */
export type RunFailureCode = keyof typeof RUN_FAILURES;

/** What `not_found` did not find (`details.what`), and where that answers differently from the row of not_found. */
export const NOT_FOUND = {
  session: { chat: 'session_not_found', when: 'no session of that key or thread for this caller (another owner’s is not found too)' },
  agent: { chat: 'model_not_found', when: 'no agent of that name (on the OpenAI and Anthropic wires, the model)' },
  run: { when: 'no run of that id to join' },
  response: { chat: 'response_not_found', when: 'no response of that id for this caller on the Responses wire (another owner’s is not found too)' },
  interrupt: { agUi: RUN_ERROR, when: 'no interrupt of that id on this thread, or none this caller may decide' },
  grant: { when: 'no grant of that id in the session (or it was revoked already)' },
  message: { when: 'no message of that id in the thread to fork at (docs/time-travel.md)' },
  effect: { when: 'no effect of that call, made by the original after the fork point, that the thread can undo (docs/time-travel.md)' },
  attachment: { when: 'no attachment at that URL for this caller (another owner’s is not found too)' },
  delivery: { when: 'no failing or given-up delivery of that id for this caller to retry (Studio, docs/approvals.md)' },
  user: { when: 'no user signed up with that address (a role change, docs/users-and-roles.md)' },
  endpoint: { chat: 'unknown_endpoint', when: 'no route at that path (or no such decision action)' },
} as const satisfies Record<string, Partial<ErrorAnswer> & { when: string }>;

export type NotFoundWhat = keyof typeof NOT_FOUND;

export type ErrorDetails = Record<string, unknown>;
export type NotFoundDetails = ErrorDetails & { what: NotFoundWhat };
/** Every code but not_found, which must say what was not found. */
export type FoundCode = Exclude<ErrorCode, 'not_found'>;

type Answer = Partial<ErrorAnswer>;

function answer(code: ErrorCode, details: ErrorDetails | undefined): Answer {
  const what = code === 'not_found' ? details?.what : undefined;
  return { ...ERROR_CODES[code], ...(typeof what === 'string' && what in NOT_FOUND ? NOT_FOUND[what as NotFoundWhat] : {}) };
}

/** The HTTP status a code is answered with. */
export function errorStatus(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/** How POST /api/agents/{name} answers a refusal of the runtime: a RUN_ERROR event, or the HTTP answer. */
export function agUiAnswer(code: ErrorCode, details?: ErrorDetails): 'RUN_ERROR' | 'HTTP' {
  return answer(code, details).agUi!;
}

/** The code the OpenAI and Anthropic wires answer (docs/internals/wires.md, "Errors"). */
export function chatCode(code: ErrorCode, details?: ErrorDetails): string {
  return answer(code, details).chat ?? code;
}
