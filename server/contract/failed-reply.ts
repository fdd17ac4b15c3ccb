// A reply a failed turn cut short (docs/turn-control.md, "Retry"): the chat marks it failed, with
// its error and the reference the server logged it under, after a reload and after later turns —
// a cut-off reply never passes for a whole one. A retry takes the reply out of the conversation,
// and its mark with it.
export interface FailedReply {
  /** The cut-off assistant message. */
  messageId: string;
  /** The run's failure code (`model_error`, `internal_error`, …). */
  code: string;
  message: string;
  /** Names the failure in the server's log, when it has one. */
  reference?: string;
}
