// An undo that would take an effect back a second time (docs/time-travel.md, "Undoing a dropped
// effect"). Two forks that asked for the undo of one effect at the same moment may both have
// passed the check that refuses the second; whichever is approved later finds the other's undo
// started in the lineage, and does not run: its result says where the effect was taken back. Two
// that start at the very same moment both run, under the one idempotency key the effect's undos
// share, which a tool's effect is keyed on: the effect is still taken back once.
import type { JsonObject, ToolCall } from '../../store/messages';
import type { EventStore } from '../../store/types';
import { undosInLineage, type LineageUndo } from '../session';
import type { ResultOutcome } from './run-types';

/** Another undo under `key` that started in the lineage of the session, if any. */
export async function undoneElsewhere(
  store: EventStore,
  sessionId: string,
  initialState: JsonObject,
  call: ToolCall,
  key: string,
): Promise<LineageUndo | undefined> {
  const session = await store.getSession(sessionId);
  if (!session) return undefined;
  return (await undosInLineage(store, session, initialState)).find((undo) => undo.key === key && undo.callId !== call.id && undo.started);
}

/** The result of an undo that did not run because the effect was taken back already. */
export function alreadyUndone(elsewhere: LineageUndo, state: JsonObject): ResultOutcome {
  return {
    ok: true,
    content: `Not run: this effect was undone already, in thread "${elsewhere.threadId}" (its undo, call ${elsewhere.callId}, ran there under the same idempotency key).`,
    output: { alreadyUndone: true, threadId: elsewhere.threadId, toolCallId: elsewhere.callId },
    state,
  };
}
