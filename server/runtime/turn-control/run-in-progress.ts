// The run a stop or a steer addresses: the one in progress on the caller's own session.
import type { FindAgent } from '../../authoring';
import type { EventStore, SessionRecord } from '../../store/types';
import { loadView } from '../session';
import { ownedSession, type SessionCaller } from '../session';

/** The session `caller` names (theirs, or not found) and the run in progress on it, if one is. */
export async function runInProgress(
  store: EventStore,
  findAgent: FindAgent,
  caller: SessionCaller,
): Promise<{ sessionId: string; session: SessionRecord; running: string | undefined }> {
  const session = await ownedSession(store, caller);
  const view = await loadView(store, session.id, findAgent(session.agent)?.initialState ?? {});
  return { sessionId: session.id, session, running: view.status === 'running' ? view.lastRun?.runId : undefined };
}
