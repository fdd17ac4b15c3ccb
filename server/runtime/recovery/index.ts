// The recovery room's face: the sweep that finishes abandoned runs, and its loop.
export { recoverSession, startRecoveryLoop, sweep } from './recovery';
