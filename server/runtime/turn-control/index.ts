// The turn-control room's face: stop, steer, the queue, timers, server append, deciding out of band.
export { decideByLink, describeDecision, readLink } from './decide-by-link';
export type { LinkView } from './decide-by-link';
export { decideInterrupt } from './decide-out-of-band';
export { readViewAndQueue } from './queue';
export type { QueueOperation } from './queue';
export { session } from './server-session';
export { requestSteer } from './steer';
export { requestStop } from './stop';
export { fireDueTimers, fireTimer, startTimerLoop } from './timers';
export { changeQueue, sendQueued, startRun } from './turns';
export { listGrants, revokeGrant } from './session-grants';
export type { GrantListing } from './session-grants';
