// Shared state written by a client between turns (docs/internals/architecture.md, "Shared state"): the
// task panel's draft (components/planner-panel.tsx) as the user types, without sending a
// message. The same rule as state sent with a run — editable keys only, each validated
// (editable-state.ts) — recorded as one state_patched event with a compare-and-set on the head.
// While a run holds the session it is refused as busy (nothing written): the client keeps the
// change and sends it again, or with its next message.
import type { DeepAgent } from '../../authoring';
import type { JsonObject } from '../../store/messages';
import { ConcurrentAppendError, type EventStore } from '../../store/types';
import { clientStatePatch } from './editable-state';
import { Refusal } from '../errors';
import { foldEvents } from './reduce';
import { runHoldsSession } from './run-lease';
import { openSession } from './view-cache';
import { sessionKeyOf } from './session-id';

const ATTEMPTS = 3;

/** Writes the editable keys of `state`; answers the session's state after it. */
export async function writeClientState(
  store: EventStore,
  agent: DeepAgent,
  request: { sessionId: string; ownerId: string; state: unknown },
): Promise<JsonObject> {
  for (let attempt = 1; ; attempt++) {
    const { session, view } = await openSession(store, request.sessionId, request.ownerId, agent);
    const patch = clientStatePatch(view.state, request.state, agent.editableState);
    if (patch.length === 0) return view.state;
    if (runHoldsSession(view, session)) {
      throw new Refusal(
        'session_busy',
        `Session "${sessionKeyOf(request.sessionId)}" is running a turn; send the state again when it ends, or with the next message.`,
      );
    }
    const events = [{ type: 'state_patched' as const, patch }];
    try {
      // A new session is created by this append, in its transaction (openSession checked the owner of an existing one).
      await store.append(request.sessionId, view.seq, events, {
        status: view.status,
        ...(session ? {} : { create: { ownerId: request.ownerId, agent: agent.name } }),
      });
      return foldEvents(view, events).state;
    } catch (error) {
      // Another write came first: read again and apply this one over it.
      if (!ConcurrentAppendError.is(error) || attempt >= ATTEMPTS)
        throw ConcurrentAppendError.is(error) ? new Refusal('session_busy', `Session "${sessionKeyOf(request.sessionId)}" kept changing; try again.`) : error;
    }
  }
}
