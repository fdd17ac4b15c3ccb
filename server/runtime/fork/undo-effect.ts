// Undoing an effect a fork left behind (docs/time-travel.md, "Undoing a dropped effect"): the
// original thread ran a call after the fork point; the fork offers its tool's declared `undo`,
// and asking for it starts a turn whose first call — the server's, not the model's — is the
// compensation, which passes that tool's approval like any other call.
import { randomUUID } from 'node:crypto';
import type { DeepAgent, FindAgent } from '../../define';
import type { DroppedEffect } from '../../events';
import type { EventStore } from '../../store/types';
import { Refusal } from '../errors';
import { loadView, ownedSession, sessionNotFound, type SessionView } from '../session';
import type { StartedRun } from '../turn';
import { startRun } from '../turn-control';

/** A dropped effect the fork can undo, with the call that would undo it. */
export interface UndoOffer extends DroppedEffect {
  undo: { tool: string; input: unknown };
}

/** The effects of the original after the fork point that the agent knows how to undo, and nobody has asked to yet. */
export function undoOffers(agent: DeepAgent, view: SessionView): UndoOffer[] {
  return view.droppedEffects.flatMap((effect): UndoOffer[] => {
    const compensate = agent.undo[effect.toolName];
    if (!compensate || view.undoneBy[effect.toolCallId]) return [];
    try {
      const undo = compensate({ input: effect.input, output: effect.output });
      return Object.hasOwn(agent.tools, undo.tool) ? [{ ...effect, undo }] : [];
    } catch {
      // An undo that cannot be worked out for this call is not offered.
      return [];
    }
  });
}

export interface UndoRequest {
  store: EventStore;
  findAgent: FindAgent;
  sessionId: string;
  ownerId: string;
  /** The agent the client addressed: a thread of another agent is not found. */
  agent?: string;
  /** The dropped call to undo. */
  toolCallId: string;
  runId?: string;
}

export async function undoDroppedEffect(request: UndoRequest): Promise<StartedRun> {
  const { store, sessionId, ownerId } = request;
  const session = await ownedSession(store, { sessionId, ownerId, agent: request.agent });
  const agent = request.findAgent(session.agent);
  if (!agent) throw sessionNotFound({ sessionId, agent: request.agent });
  const view = await loadView(store, sessionId, agent.initialState);
  if (view.undoneBy[request.toolCallId])
    throw new Refusal(
      'already_undone',
      `The effect of call "${request.toolCallId}" was asked to be undone already (call "${view.undoneBy[request.toolCallId]}").`,
    );
  const offer = undoOffers(agent, view).find((candidate) => candidate.toolCallId === request.toolCallId);
  if (!offer) throw new Refusal('not_found', `No effect of call "${request.toolCallId}" that this thread can undo.`, { what: 'effect' });
  return startRun({
    agent,
    store,
    sessionId,
    ownerId,
    source: 'agui',
    runId: request.runId,
    messages: [],
    undo: { of: offer.toolCallId, call: { id: `undo_${randomUUID()}`, name: offer.undo.tool, input: offer.undo.input } },
  });
}
