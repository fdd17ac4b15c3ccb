// A reply and its regenerations, as the thread page gives them (docs/time-travel.md, "Regenerate"):
// the chat shows "‹ 2/3 ›" on the reply and switches between their threads in place.
export interface ReplyVersions {
  /**
   * The message right before the reply, which every version shares: the versions are of the first
   * assistant message after it (a regeneration's reply may still be streaming when the page is drawn).
   */
  afterMessageId: string;
  /** Where a further Regenerate asks again: the original thread, at its reply. */
  original: { threadId: string; atMessageId: string };
  /** Every version's thread, the original first, then each regeneration, oldest first. */
  threads: string[];
  /** This thread. */
  current: string;
}
