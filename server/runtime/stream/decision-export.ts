// The decision export (docs/replay.md, "Exporting decisions"): one line per decided interrupt,
// for an audit or a test — the call as asked and as run, who decided (the whole DecisionActor),
// the votes, when it opened and when it was decided. Built on the chat's decision record.
import type { DecisionActor, DecisionStatus, Vote } from '../../store/pauses';
import type { JsonObject } from '../../store/messages';
import { publicOwnerId, withPublicOwnerIds } from '../../credentials/open-dev-mode';
import type { EventStore, InterruptRow } from '../../store/types';
import { own } from '../common';
import { loadView, sessionKeyOf, type InterruptState } from '../session';
import { decisionRecordOf } from './decision-records';

interface DecisionExportLine {
  /** The session as its owner names it. */
  session: string;
  agent: string;
  interruptId: string;
  toolCallId: string;
  toolName: string;
  /** The arguments the model asked for. */
  argsAsked: unknown;
  /** The arguments the call ran with (the edited ones, if edited); null when it did not run. */
  argsRun: unknown;
  status: DecisionStatus;
  reason: string | null;
  /** True when nobody decided in time and this is the interrupt's default action. */
  expired: boolean;
  by: Pick<DecisionActor, 'source' | 'credential' | 'keyName' | 'recipient' | 'ownerId'>;
  votes: Vote[];
  openedAt: string;
  decidedAt: string;
  latencyMs: number;
  /** The decision's signed receipt (docs/approvals.md, "Signed receipts"); each vote carries its own. Null in logs written before receipts. */
  receipt: string | null;
}

function exportLine(row: InterruptRow, state: InterruptState): DecisionExportLine | undefined {
  const record = decisionRecordOf(state);
  const decision = state.decision;
  if (!record || !decision) return undefined;
  const { source, credential, keyName, recipient, ownerId } = decision.by;
  return {
    session: sessionKeyOf(row.sessionId),
    agent: row.agent,
    interruptId: record.interruptId,
    toolCallId: record.toolCallId,
    toolName: record.toolName,
    argsAsked: record.argsAsked,
    argsRun: record.status === 'approved' ? (record.editedArgs ?? record.argsAsked) : null,
    status: record.status,
    reason: record.reason ?? null,
    expired: record.expired === true,
    by: {
      source,
      ...(credential ? { credential } : {}),
      ...(keyName ? { keyName } : {}),
      ...(recipient ? { recipient } : {}),
      ...(ownerId ? { ownerId: publicOwnerId(ownerId) } : {}),
    },
    votes: withPublicOwnerIds(decision.votes ?? []),
    openedAt: state.openedAt,
    decidedAt: record.at,
    latencyMs: Date.parse(record.at) - Date.parse(state.openedAt),
    receipt: decision.receipt ?? null,
  };
}

/**
 * The export lines of decided interrupts (as listed by the store), oldest decision first. Each
 * session's log is folded from its agent's initial state (`initialStateOf` the session's agent):
 * its state patches apply to that.
 */
export async function decisionExport(
  store: EventStore,
  rows: readonly InterruptRow[],
  initialStateOf: (agent: string) => JsonObject,
): Promise<DecisionExportLine[]> {
  const bySession = Map.groupBy(rows, (row) => row.sessionId);
  const lines: DecisionExportLine[] = [];
  for (const [sessionId, sessionRows] of bySession) {
    const session = await store.getSession(sessionId);
    if (!session) continue;
    const view = await loadView(store, sessionId, initialStateOf(session.agent));
    for (const row of sessionRows) {
      const state = own(view.interrupts, row.id);
      const line = state && exportLine(row, state);
      if (line) lines.push(line);
    }
  }
  return lines.sort((a, b) => a.decidedAt.localeCompare(b.decidedAt) || a.interruptId.localeCompare(b.interruptId));
}
