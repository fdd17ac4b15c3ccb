// A session's grants, listed and revoked (docs/approvals.md, "Scoped grants"):
// the session's owner sees each grant its approvers made, with whether it still applies, and may
// revoke one. A revocation is an event (`grant_revoked`), appended with the log's
// compare-and-set like a decision; from then on the grant never applies.
import type { FindAgent } from '../../authoring';
import type { DecisionActor, Grant } from '../../store/pauses';
import { ConcurrentAppendError, type EventStore } from '../../store/types';
import { grantHolds } from '../decisions';
import { Refusal } from '../errors';
import { loadSessionView, ownedSession, runHoldsSession, type SessionCaller } from '../session';

export interface GrantListing {
  grant: Grant;
  addedAt: string;
  /** Whether it applies now: not revoked, not past its end. */
  active: boolean;
  revoked?: { by: DecisionActor; at: string };
}

/** Every grant of the caller's session, newest first. */
export async function listGrants(store: EventStore, findAgent: FindAgent, caller: SessionCaller): Promise<GrantListing[]> {
  const session = await ownedSession(store, caller);
  const { view } = await loadSessionView(store, session, findAgent(session.agent)?.initialState ?? {});
  const now = Date.now();
  return Object.values(view.grants)
    .map((state) => ({ grant: state.grant, addedAt: state.addedAt, active: grantHolds(state, now), ...(state.revoked ? { revoked: state.revoked } : {}) }))
    .sort((a, b) => b.addedAt.localeCompare(a.addedAt) || b.grant.id.localeCompare(a.grant.id));
}

const ATTEMPTS = 5;

/**
 * Revokes a grant of the caller's session. A grant that is unknown or revoked already is not
 * found; one past its end is revoked all the same (the record says so). While a turn holds the
 * session the revocation waits for none: it is refused as session_busy, to be sent again.
 */
export async function revokeGrant(store: EventStore, findAgent: FindAgent, caller: SessionCaller, grantId: string, by: DecisionActor): Promise<GrantListing> {
  for (let attempt = 1; ; attempt++) {
    const owned = await ownedSession(store, caller);
    const { session, view } = await loadSessionView(store, owned, findAgent(owned.agent)?.initialState ?? {});
    const state = Object.hasOwn(view.grants, grantId) ? view.grants[grantId] : undefined;
    if (!state || state.revoked) throw new Refusal('not_found', `No grant ${grantId} in this session.`, { what: 'grant', grantId });
    // A turn's writes assume it is the only writer while it holds the session (docs/internals/architecture.md).
    if (runHoldsSession(view, session)) throw new Refusal('session_busy', 'A turn is running on this session; revoke the grant again when it ends.');
    try {
      const { at } = await store.append(session.id, view.seq, [{ type: 'grant_revoked', grantId, by }], { status: view.status });
      return { grant: state.grant, addedAt: state.addedAt, active: false, revoked: { by, at } };
    } catch (error) {
      if (!ConcurrentAppendError.is(error) || attempt >= ATTEMPTS) throw error;
    }
  }
}
