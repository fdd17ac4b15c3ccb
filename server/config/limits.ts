// How long a turn holds its session, how much one request may carry, how much a session may hold
// (docs/security.md, "What a request may carry"; docs/hitl.md, "Timeouts"; docs/models.md, "Timeouts").
import { group } from './group';
import { whole } from './variable';

export const limits = group('', {
  STACKBONE_LEASE_MS: whole(
    { description: "How long a running turn holds its session without renewing (ms); a crashed server's turn is taken over after this." },
    'milliseconds',
    30_000,
    1,
  ),
  STACKBONE_STEP_TIMEOUT_MS: whole(
    { description: 'How long one model call may take (ms), unless the agent sets stepTimeout (docs/models.md, "Timeouts").' },
    'milliseconds',
    120_000,
  ),
  STACKBONE_TOOL_TIMEOUT_MS: whole(
    { description: 'How long one tool call may take (ms), unless the tool or its agent sets its own (toolTimeouts, toolTimeout; docs/hitl.md, "Timeouts").' },
    'milliseconds',
    120_000,
  ),
  STACKBONE_STOP_GRACE_MS: whole(
    { description: 'How long a timed-out or stopped tool call may still take to settle before it is abandoned (ms).' },
    'milliseconds',
    2_000,
  ),
  STACKBONE_STREAM_MAX_MS: whole(
    { description: 'How long one session-stream response lasts (ms); the browser reconnects with its cursor.' },
    'milliseconds',
    240_000,
    1,
  ),
  STACKBONE_MAX_BODY_BYTES: whole({ description: 'Largest accepted request body (bytes).' }, 'bytes', 1_000_000, 1),
  STACKBONE_MAX_QUEUED_MESSAGES: whole({ description: "Messages waiting in a session's queue at once, each a model turn to come." }, '', 32),
  STACKBONE_MAX_STEERS_PER_RUN: whole({ description: 'Guidance one run may take, each a model step.' }, '', 32),
  STACKBONE_MAX_TIMERS_PER_SESSION: whole({ description: 'Timers a session may have waiting to fire, each a run.' }, '', 100),
  STACKBONE_QUEUE_WAIT_MS: whole(
    {
      description: 'How long the response to a message queued behind a running turn waits for it to go out (ms) before it ends, saying the message is queued.',
    },
    'milliseconds',
    60_000,
  ),
  STACKBONE_MAX_MESSAGE_CHARS: whole(
    { description: "A message's text, in characters: a user's, a tool result a client sends, a queued one, guidance." },
    'characters',
    100_000,
  ),
  STACKBONE_MAX_THREAD_BYTES: whole(
    {
      description: "A thread's log, in bytes of its events' JSON, past which it takes no new message (at most 2 GB): every view of the thread reads all of it.",
    },
    'bytes',
    8_000_000,
  ),
  STACKBONE_VIEW_CACHE: whole({ description: 'Session views kept warm per process; the least recently read is dropped first.' }, '', 500, 1),
  STACKBONE_VIEW_CACHE_BYTES: whole({ description: 'The bytes those views may take together.' }, 'bytes', 64_000_000, 1),
});
