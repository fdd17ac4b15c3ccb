// What became of a tool call a person was asked about, and of the calls a stop cut: the chat
// shows it under the call (docs/hitl.md, "Decisions in the chat"), the same in the hydration
// JSON, the thread page's first paint and the `stackbone.interrupt_decided` event.
import type { DecisionActor, DecisionStatus, InterruptReason, Vote } from '../store/pauses';

/** One decided interrupt, as a client shows it: who decided what, when, and which arguments ran. */
export interface DecisionRecord {
  interruptId: string;
  /** The call it decided: the chat shows the decision under it. */
  toolCallId: string;
  toolName: string;
  /** What the pause asked: a tool call to approve, a question to answer, a confirmation. */
  interruptReason: InterruptReason;
  /** `approved`: the call ran (with `editedArgs`, if given); `denied`: rejected, the model is told; `cancelled`: withdrawn, the turn ended. */
  status: DecisionStatus;
  /** The arguments the model proposed. */
  argsAsked: unknown;
  /** The arguments that ran instead (an approval with edits): a full replacement of `argsAsked`. */
  editedArgs?: unknown;
  /** Why it was rejected, as the person (or the expiry) put it. */
  reason?: string;
  /** The interrupt expired and this is its default action. */
  expired?: boolean;
  /** Where it was decided and what proved who decided (docs/security.md, "What each credential can do"). */
  by: { source: DecisionActor['source']; credential?: DecisionActor['credential'] };
  /** A call several approvers decided (a quorum): every vote, in order, the deciding one last — where each was cast. */
  votes?: { status: Vote['status']; source: DecisionActor['source'] }[];
  /** When the server recorded it (ISO 8601). */
  at: string;
}
