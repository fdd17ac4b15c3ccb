export { LeaseLostError, RunRejectedError, errorMessage, logFailure } from './run-errors';
