// The CUSTOM events this server adds to AG-UI, named once for the server that sends them and
// the browser that reads them (docs/architecture.md, "Streams and cursors").

/** A decision made outside any run (the CLI, /api/hitl, an expiry): `{interruptId, status, by}`. */
export const INTERRUPT_DECIDED = 'stackbone.interrupt_decided';

/** The session stream's message queue changed (docs/turn-control.md, "Queue"): `{queue: [{id, content, runId, sendNow}]}`, in the order it goes out. */
export const QUEUE_CHANGED = 'stackbone.queue';
