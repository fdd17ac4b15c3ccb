// The errors room's face: the runtime's typed failures.
export { LeaseLostError, Refusal, errorMessage, logFailure } from './run-errors';
export { modelFailure } from './model-failure';
export { StepTimeoutError } from './step-timeout';
