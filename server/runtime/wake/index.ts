// The wake room's face: one item of due work, run when its wake arrives (docs/deploy.md, "Due work").
export { runDue } from './run-due';
export type { DueWork } from './run-due';
