// Votes toward a quorum (docs/approvals.md, "Quorum and separation of duties"): an interrupt that
// needs M distinct approvers takes each approval short of M as a vote; the one that reaches M is
// its decision, carrying every vote. One rejection rejects (rejectOn 'first'), or M do
// (rejectOn 'quorum'). One approver votes once. The tally reads the view the caller will append
// onto with the log's compare-and-set, so two racing final votes make one decision.
import type { ShownVote } from '../../contract';
import type { Decision, DecisionActor, Vote } from '../../store/pauses';
import { keyLabelOf } from '../../credentials/open-dev-mode';
import type { EventStore } from '../../store/types';
import { Refusal } from '../errors';
import type { InterruptState } from '../session';
import { isBrowserOwner, voterIdentity } from './who-may-decide';

/** What a validated decision becomes on its interrupt: the decision, or a vote toward it. */
export type Ballot = { kind: 'decision'; decision: Decision } | { kind: 'vote'; vote: Vote };

/** The decision as it stands, or a vote when the interrupt's quorum is not reached by it. */
export function tally(state: Pick<InterruptState, 'record' | 'votes'>, decision: Decision): Ballot {
  const { record } = state;
  const quorum = record.quorum ?? 1;
  const votes = state.votes ?? [];
  if (decision.status === 'cancelled' || quorum === 1) return { kind: 'decision', decision };
  const by = named(decision.by);
  const identity = voterIdentity(by);
  if (votes.some((vote) => voterIdentity(vote.by) === identity)) {
    throw new Refusal('already_voted', `You voted on interrupt ${record.id} already; ${quorum} distinct approvers decide it.`, {
      interruptId: record.id,
      votes: votes.length,
      quorum,
    });
  }
  const vote: Vote = {
    status: decision.status,
    ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
    ...(decision.payload !== undefined ? { payload: decision.payload } : {}),
    by,
  };
  const needed = decision.status === 'denied' && record.rejectOn !== 'quorum' ? 1 : quorum;
  const alike = votes.filter((cast) => cast.status === vote.status).length + 1;
  if (alike < needed) return { kind: 'vote', vote };
  return { kind: 'decision', decision: { ...decision, by, votes: [...votes, vote] } };
}

/** A key's voter with the name STACKBONE_API_KEYS gives it now, so the votes read as people ("alice"). */
function named(by: DecisionActor): DecisionActor {
  if (by.credential !== 'key' || by.keyName !== undefined || by.ownerId === undefined) return by;
  const name = keyLabelOf(by.ownerId)?.name;
  return name === undefined ? by : { ...by, keyName: name };
}

/** The votes cast so far on an interrupt, in order, from its session's log (for listings that read the projection, not the view). */
export async function votesCast(store: Pick<EventStore, 'readEvents'>, sessionId: string, interruptId: string): Promise<Vote[]> {
  return (await store.readEvents(sessionId)).flatMap(({ event }) =>
    event.type === 'interrupt_voted' && event.interruptId === interruptId ? [event.vote] : [],
  );
}

/**
 * Who reads the votes (docs/approvals.md, "Votes"): a key holder, a member and open dev mode's
 * local owner read each voter's name; anyone else — a customer's browser, a link's holder — reads
 * how many approved or rejected, and nothing of who. No reader gets an owner id; each reads which
 * vote is their own (`identity`, a voter's as voterIdentity says).
 */
export interface VoteReader {
  seesNames: boolean;
  identity?: string;
}

/** A reader who is nobody in particular: a link's holder reads the count alone. */
export const ANY_READER: VoteReader = { seesNames: false };

/** The reader an owner is: a key holder, a member or the local owner sees names; a browser does not. */
export function voteReaderOf(ownerId: string): VoteReader {
  return { seesNames: !isBrowserOwner(ownerId), identity: ownerId };
}

export function shownVote(vote: Vote, reader: VoteReader): ShownVote {
  const mine = reader.identity !== undefined && voterIdentity(vote.by) === reader.identity ? { mine: true as const } : {};
  if (!reader.seesNames) return { status: vote.status, ...mine };
  const { source, credential, keyName, recipient, client } = vote.by;
  return {
    status: vote.status,
    ...(vote.reason !== undefined ? { reason: vote.reason } : {}),
    by: { source, ...(credential ? { credential } : {}), ...(keyName ? { keyName } : {}), ...(recipient ? { recipient } : {}), ...(client ? { client } : {}) },
    ...mine,
  };
}

/** A decision as a reader is shown it: its votes shown as votes are, and who decided only to a key holder. */
export function shownDecision(
  decision: Decision,
  reader: VoteReader,
): Omit<Decision, 'by' | 'votes'> & { by: ShownVote['by'] & { source: DecisionActor['source'] }; votes?: ShownVote[] } {
  const { by, votes, ...rest } = decision;
  const shown = shownVote({ status: decision.status === 'denied' ? 'denied' : 'approved', by }, reader).by;
  return { ...rest, by: shown ?? { source: by.source }, ...(votes ? { votes: votes.map((vote) => shownVote(vote, reader)) } : {}) };
}
