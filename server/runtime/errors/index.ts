export { LeaseLostError, Refusal, errorMessage, logFailure } from './run-errors';
