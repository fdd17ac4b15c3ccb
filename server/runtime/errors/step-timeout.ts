// A model call that ran past its agent's stepTimeout (docs/models.md, "Timeouts"). It is the
// provider's silence, not the user's stop: the turn fails with model_error, retryable, and a
// Stop still ends the run as cancelled (the runner reads the stop from its own signal).
export class StepTimeoutError extends Error {
  /** modelFailure reads this as every provider error carries it: a Retry may go through. */
  readonly isRetryable = true;

  constructor(readonly timeoutMs: number) {
    super(`The model call took longer than its step timeout (${timeoutMs} ms).`);
    this.name = 'StepTimeoutError';
  }
}
