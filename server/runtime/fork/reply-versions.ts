// A reply's versions (docs/time-travel.md, "Regenerate"): Regenerate asks a reply again in a fork
// of the thread — the fork's log, durability and exactly-once are those of any fork — and the
// chat shows the original reply and each regeneration of it as versions of one reply, "‹ 2/3 ›",
// switching between their threads in place. Every regeneration of a reply is a fork of the thread
// that first had it, at that reply: a regeneration of a regeneration asks the original again.
import type { ReplyVersions } from '../../contract';
import type { EventStore, SessionRecord } from '../../store/types';
import { loadView, sessionKeyOf, type SessionView } from '../session';

/**
 * The versions of the replies this thread shows: for the original thread, one entry per reply it
 * was regenerated at; for a regeneration, the entry of the reply it asked again (after the same
 * message). Empty for a thread nobody regenerated.
 */
export async function replyVersions(
  store: EventStore,
  session: SessionRecord | null,
  view: SessionView,
  initialState: SessionView['state'],
): Promise<ReplyVersions[]> {
  if (!session) return [];
  const from = view.forkedFrom;
  if (from?.mode === 'regenerate' && session.parentId) {
    const original = await store.getSession(session.parentId);
    if (!original) return [];
    const originalView = await loadView(store, original.id, initialState);
    const before = messageBefore(originalView, from.atMessageId);
    if (!before) return [];
    const threads = await regenerationsOf(store, original, from.atMessageId, initialState);
    return [
      { afterMessageId: before, original: { threadId: sessionKeyOf(original.id), atMessageId: from.atMessageId }, threads, current: sessionKeyOf(session.id) },
    ];
  }
  const forks = await store.listSessions(session.ownerId, { parentId: session.id, limit: 100 });
  if (forks.length === 0) return [];
  const points = new Set<string>();
  for (const fork of forks) {
    const origin = (await loadView(store, fork.id, initialState)).forkedFrom;
    if (origin?.mode === 'regenerate') points.add(origin.atMessageId);
  }
  return Promise.all(
    [...points].flatMap((atMessageId) => {
      const before = messageBefore(view, atMessageId);
      return before
        ? [
            regenerationsOf(store, session, atMessageId, initialState).then((threads) => ({
              afterMessageId: before,
              original: { threadId: sessionKeyOf(session.id), atMessageId },
              threads,
              current: sessionKeyOf(session.id),
            })),
          ]
        : [];
    }),
  );
}

/** The id of the message right before `messageId` in the thread: every version of that reply shares it. */
function messageBefore(view: SessionView, messageId: string): string | undefined {
  const at = view.messages.findIndex((message) => message.id === messageId);
  return at > 0 ? view.messages[at - 1]!.id : undefined;
}

/** The original thread, then each regeneration of its reply at `atMessageId`, oldest first. */
async function regenerationsOf(store: EventStore, original: SessionRecord, atMessageId: string, initialState: SessionView['state']): Promise<string[]> {
  const forks = await store.listSessions(original.ownerId, { parentId: original.id, limit: 100 });
  const regenerations: SessionRecord[] = [];
  for (const fork of forks) {
    const origin = (await loadView(store, fork.id, initialState)).forkedFrom;
    if (origin?.mode === 'regenerate' && origin.atMessageId === atMessageId) regenerations.push(fork);
  }
  regenerations.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  return [sessionKeyOf(original.id), ...regenerations.map((fork) => sessionKeyOf(fork.id))];
}
