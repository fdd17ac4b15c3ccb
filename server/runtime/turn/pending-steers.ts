// Guidance for a running turn that it has not taken yet (docs/turn-control.md, "Steer"); the run
// reads it at each step boundary.
import type { ChatMessage } from '../../events';
import type { EventStore } from '../../store/types';

/** The run's guidance not yet in the conversation, oldest first. */
export async function pendingSteers(store: EventStore, sessionId: string, runId: string, known: ReadonlySet<string>): Promise<ChatMessage[]> {
  return (await store.listSteers(sessionId, runId)).map((steer) => steer.message).filter((message) => !known.has(message.id));
}
