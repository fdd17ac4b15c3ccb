// The CUSTOM events this server adds to AG-UI, named once for the server that sends them and
// the browser that reads them (docs/architecture.md, "Streams and cursors").

/** A decision made outside any run (the CLI, /api/hitl, an expiry): `{interruptId, status, by}`. */
export const INTERRUPT_DECIDED = 'stackbone.interrupt_decided';

/** The session stream's message queue changed (docs/turn-control.md, "Queue"): `{queue: [{id, content, runId, sendNow}]}`, in the order it goes out. */
export const QUEUE_CHANGED = 'stackbone.queue';

/**
 * The activity type of a running tool's preliminary output: an `ACTIVITY_SNAPSHOT` with
 * `content: {toolCallId, toolName, output}`, one activity message per call, replaced by each
 * new output (docs/turn-control.md, "Concurrent tools").
 */
export const TOOL_PROGRESS = 'stackbone.tool_progress';

export function toolProgressMessageId(toolCallId: string): string {
  return `progress:${toolCallId}`;
}
