// The turn room's face: starting and running one turn.
export { followRun } from './follow-run';
export type { RunRequest, StartedRun, TurnQueue } from './run-request';
export { startRunWithQueue } from './start-run';
export { refuseThreadOnlyInput, startStatelessRun } from './stateless-run';
export { notRunResults, settleStoppedRun } from './stopped-run';
