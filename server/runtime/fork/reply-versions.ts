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
  const regeneration = from?.mode === 'regenerate' && session.parentId ? from : undefined;
  const original = regeneration ? await store.getSession(session.parentId!) : session;
  if (!original) return [];
  const originalView = regeneration ? await loadView(store, original.id, initialState) : view;
  const byReply = await regenerationsOf(store, original, initialState);
  // A regeneration shows the versions of the reply it asked again; the original, those of each reply asked again.
  const replies = regeneration ? [regeneration.atMessageId] : [...byReply.keys()];
  return replies.flatMap((atMessageId) => {
    const before = messageBefore(originalView, atMessageId);
    const forks = byReply.get(atMessageId) ?? [];
    if (!before) return [];
    return [
      {
        afterMessageId: before,
        original: { threadId: sessionKeyOf(original.id), atMessageId },
        threads: [sessionKeyOf(original.id), ...forks.map((fork) => sessionKeyOf(fork.id))],
        current: sessionKeyOf(session.id),
      },
    ];
  });
}

/** The id of the message right before `messageId` in the thread: every version of that reply shares it. */
function messageBefore(view: SessionView, messageId: string): string | undefined {
  const at = view.messages.findIndex((message) => message.id === messageId);
  return at > 0 ? view.messages[at - 1]!.id : undefined;
}

/** The thread's regenerations, by the reply each asked again, oldest first: its forks listed and read once. */
async function regenerationsOf(store: EventStore, original: SessionRecord, initialState: SessionView['state']): Promise<Map<string, SessionRecord[]>> {
  const forks = await store.listSessions(original.ownerId, { parentId: original.id, limit: 100 });
  const byReply = new Map<string, SessionRecord[]>();
  for (const fork of forks.toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
    const origin = (await loadView(store, fork.id, initialState)).forkedFrom;
    if (origin?.mode === 'regenerate') byReply.set(origin.atMessageId, [...(byReply.get(origin.atMessageId) ?? []), fork]);
  }
  return byReply;
}
