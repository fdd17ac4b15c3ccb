// The recovery room's face: the sweep that finishes abandoned runs, and its loop.
export { startRecoveryLoop, sweep } from './recovery';
