// The recovery room's face: the sweep that finishes abandoned runs.
export { sweep } from './recovery';
