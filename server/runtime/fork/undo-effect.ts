// Undoing an effect a fork left behind (docs/time-travel.md, "Undoing a dropped effect"): the
// original thread ran a call after the fork point; the fork offers its tool's declared `undo`,
// and asking for it starts a turn whose first call — the server's, not the model's — is the
// compensation, which passes that tool's approval like any other call. An effect is undone once
// across its lineage: every fork that left it behind would undo it under one idempotency key
// (effect-origin.ts), and once any of them asked, none offers it and asking again is refused.
import { randomUUID } from 'node:crypto';
import type { DeepAgent, FindAgent } from '../../authoring';
import type { DroppedEffect } from '../../store/events';
import type { EventStore, SessionRecord } from '../../store/types';
import { Refusal } from '../errors';
import { loadView, ownedSession, sessionNotFound, undosInLineage, type LineageUndo, type SessionView } from '../session';
import { undoIdempotencyKey } from '../tools';
import type { StartedRun } from '../turn';
import { startRun } from '../turn-control';
import { effectOrigins } from './effect-origin';

/** A dropped effect the fork can undo, with the call that would undo it. */
export interface UndoOffer extends DroppedEffect {
  undo: { tool: string; input: unknown };
}

/** A dropped effect's undo as this fork would make it: its idempotency key, and where in the lineage it was asked for already. */
interface UndoPlan {
  offer: UndoOffer;
  key: string;
  asked?: LineageUndo;
}

/** The effects of the original after the fork point that the agent knows how to undo. */
function compensations(agent: DeepAgent, view: SessionView): UndoOffer[] {
  return view.droppedEffects.flatMap((effect): UndoOffer[] => {
    const compensate = agent.undo[effect.toolName];
    if (!compensate) return [];
    try {
      const undo = compensate({ input: effect.input, output: effect.output });
      return Object.hasOwn(agent.tools, undo.tool) ? [{ ...effect, undo }] : [];
    } catch {
      // An undo that cannot be worked out for this call is not offered.
      return [];
    }
  });
}

/** Each dropped effect the agent knows how to undo, with its key and whether the lineage asked for its undo already. */
async function undoPlans(store: EventStore, session: SessionRecord, agent: DeepAgent, view: SessionView): Promise<UndoPlan[]> {
  const offers = compensations(agent, view);
  if (offers.length === 0) return [];
  const [origins, undos] = await Promise.all([
    effectOrigins(
      store,
      session,
      offers.map((offer) => offer.toolCallId),
      agent.initialState,
    ),
    undosInLineage(store, session, agent.initialState),
  ]);
  return offers.map((offer) => {
    const key = undoIdempotencyKey(origins.get(offer.toolCallId)!, offer.toolCallId);
    const asked = undos.find((undo) => undo.key === key);
    return { offer, key, ...(asked ? { asked } : {}) };
  });
}

/** The dropped effects the fork offers to undo: those the agent knows how to undo, that no thread of the lineage has asked to yet. */
export async function undoOffers(store: EventStore, agent: DeepAgent, session: SessionRecord | null, view: SessionView): Promise<UndoOffer[]> {
  if (!session || view.droppedEffects.length === 0) return [];
  const plans = await undoPlans(store, session, agent, view);
  return plans.filter((plan) => !plan.asked && !view.undoneBy[plan.offer.toolCallId]).map((plan) => plan.offer);
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
  const plan = (await undoPlans(store, session, agent, view)).find((candidate) => candidate.offer.toolCallId === request.toolCallId);
  if (!plan) throw new Refusal('not_found', `No effect of call "${request.toolCallId}" that this thread can undo.`, { what: 'effect' });
  if (plan.asked)
    throw new Refusal(
      'already_undone',
      `The effect of call "${request.toolCallId}" was asked to be undone already, in thread "${plan.asked.threadId}" (call "${plan.asked.callId}"): an effect is undone once across its forks.`,
      { threadId: plan.asked.threadId },
    );
  return startRun({
    agent,
    store,
    sessionId,
    ownerId,
    source: 'agui',
    runId: request.runId,
    messages: [],
    undo: { of: plan.offer.toolCallId, call: { id: `undo_${randomUUID()}`, name: plan.offer.undo.tool, input: plan.offer.undo.input }, key: plan.key },
  });
}
