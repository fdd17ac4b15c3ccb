// The stream room's face: cursors, run parts and following a thread.
export { formatCursor, parseCursor } from './cursor';
export type { CursorPosition } from './cursor';
export { follow } from './follow';
export { RunFeed, liveFeed, liveRunOf, publishFeed, untilAborted } from './live-feed';
export { decisionRecords } from './decision-records';
export { decisionExport } from './decision-export';
export { approvalMetrics } from './approval-metrics';
export { sessionReceipts } from './session-receipts';
export { LogProjector } from './log-projector';
export type { RunPart, StreamPart } from './parts';
export { queueItems } from './queue-items';
export { threadStatus } from './thread-status';
export { runSoFar } from './run-so-far';
export type { RunInput, RunSoFar } from './run-so-far';
