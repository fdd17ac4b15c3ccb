// The parts a client sees, derived from the log. The live stream and every replay come
// from here, so a client that re-joins from a cursor gets exactly the parts it missed —
// the same parts, under the same cursors, whether they reach it live or from the database
// (docs/internals/architecture.md, "Streams and cursors").
import { formatCursor } from './cursor';
import { decisionRecordOf } from './decision-records';
import type { StoredEvent, StreamedPart } from '../../store/events';
import type { AssistantMessage } from '../../store/messages';
import type { RunPart, StreamPart } from './parts';
import { reduce, type SessionView, type UsageEntry } from '../session';
import { sessionKeyOf } from '../session';

export class LogProjector {
  /** The run whose start is being read: its snapshots follow its last input event. */
  private opening?: { remaining: number; hadMessages: boolean };
  private runId?: string;

  /** The session as its client names it (its key; docs/security.md, "Owners and their ids"). */
  private readonly threadId: string;

  constructor(
    sessionId: string,
    private view: SessionView,
  ) {
    this.threadId = sessionKeyOf(sessionId);
  }

  get seq(): number {
    return this.view.seq;
  }

  /** Folds one stored event and returns the parts it makes, in order. */
  project(stored: StoredEvent): StreamPart[] {
    const before = this.view;
    // A decision in a run's opening is the run's; one made outside any run belongs to none, as a vote does.
    const inRun = this.opening !== undefined || (stored.event.type !== 'interrupt_decided' && stored.event.type !== 'interrupt_voted');
    this.view = reduce(before, stored);
    const parts = this.partsOf(stored, before);
    return parts.map((part, j) => ({ cursor: formatCursor(stored.seq, j), ...(inRun ? { runId: this.runId } : {}), part }));
  }

  private partsOf({ event }: StoredEvent, before: SessionView): RunPart[] {
    if (this.opening) {
      // The run's decisions and input: each decision shows at once, the snapshots after them show their effect.
      this.opening.remaining--;
      const decided = event.type === 'interrupt_decided' ? this.decided(event.interruptId, before) : [];
      return this.opening.remaining === 0 ? [...decided, ...this.openingSnapshots()] : decided;
    }
    switch (event.type) {
      case 'run_started': {
        this.runId = event.runId;
        const started: RunPart = {
          type: 'run-started',
          threadId: this.threadId,
          runId: event.runId,
          ...(event.parentRunId ? { parentRunId: event.parentRunId } : {}),
        };
        this.opening = { remaining: event.inputs ?? 0, hadMessages: before.messages.length > 0 };
        return this.opening.remaining === 0 ? [started, ...this.openingSnapshots()] : [started];
      }
      case 'assistant_step':
        if (event.scope) return [];
        return [...(event.stream ?? streamOf(event.message)), ...sourcesOf(event.message)];
      case 'tool_result':
        if (event.scope) return [];
        return [
          {
            type: 'tool-result',
            messageId: event.message.id,
            toolCallId: event.message.toolCallId,
            toolName: event.message.toolName,
            content: event.message.content,
            ...(event.message.isError ? { isError: true } : {}),
          },
        ];
      case 'tool_progress':
        return event.scope ? [] : [{ type: 'tool-progress', toolCallId: event.toolCallId, toolName: event.toolName, output: event.output }];
      case 'message_added':
        // Guidance taken in mid-run (a steer): the conversation as it now stands. (A run's own
        // input is placed by its opening, above.)
        return event.scope ? [] : [this.messagesSnapshot()];
      case 'state_patched':
        // Shared state is one for the whole session: a task's changes show live too.
        return [{ type: 'state-delta', patch: event.patch }];
      case 'interrupt_decided':
        return this.decided(event.interruptId, before);
      case 'interrupt_voted': {
        const state = this.view.interrupts[event.interruptId];
        return state?.votes && !state.decision
          ? [{ type: 'interrupt-voted', interruptId: event.interruptId, quorum: state.record.quorum ?? 1, votes: state.votes }]
          : [];
      }
      case 'context_compacted': {
        const notice = this.view.compactions.at(-1);
        return event.scope || !notice ? [] : [{ type: 'context-compacted', compaction: notice }];
      }
      case 'step_started':
        return [{ type: 'step-started', stepName: event.stepName }];
      case 'step_finished':
        return [{ type: 'step-finished', stepName: event.stepName }];
      case 'run_finished': {
        const usage = this.runUsage();
        switch (event.outcome.type) {
          case 'interrupt': {
            const interrupts = event.outcome.interruptIds.flatMap((id) => this.view.interrupts[id]?.record ?? []);
            return [
              this.messagesSnapshot(),
              { type: 'state-snapshot', state: this.view.state },
              { type: 'run-finished', outcome: event.outcome, interrupts, ...usage },
            ];
          }
          case 'cancelled': {
            // What the stop kept, whatever each client had streamed of the cut step, and the calls it cut.
            const stopped = this.view.stoppedToolCallIds.slice(before.stoppedToolCallIds.length);
            return [
              this.messagesSnapshot(),
              ...(stopped.length ? [{ type: 'tools-stopped' as const, toolCallIds: stopped }] : []),
              { type: 'run-finished', outcome: event.outcome, ...usage },
            ];
          }
          default:
            return [{ type: 'run-finished', outcome: event.outcome, ...usage }];
        }
      }
      case 'run_failed':
        return [{ type: 'run-error', code: event.code, message: event.message, ...(event.details ? { details: event.details } : {}), ...this.runUsage() }];
      default:
        return [];
    }
  }

  /** What the run's model calls cost so far, from the whole log's fold (so every reader, from any cursor, gets the same); nothing when none reported any. */
  private runUsage(): { usage?: UsageEntry[] } {
    const usage = this.view.lastRun?.usage ?? [];
    return usage.length ? { usage } : {};
  }

  /** The decision just folded, unless the interrupt was decided already (the log's CAS never lets that happen). */
  private decided(interruptId: string, before: SessionView): RunPart[] {
    const state = this.view.interrupts[interruptId];
    const decision = state && !before.interrupts[interruptId]?.decision ? decisionRecordOf(state) : undefined;
    return decision ? [{ type: 'interrupt-decided', decision }] : [];
  }

  private openingSnapshots(): RunPart[] {
    const hadMessages = this.opening?.hadMessages;
    this.opening = undefined;
    return [...(hadMessages ? [this.messagesSnapshot()] : []), { type: 'state-snapshot', state: this.view.state }];
  }

  private messagesSnapshot(): RunPart {
    return { type: 'messages-snapshot', messages: this.view.messages };
  }
}

/** The parts of a step that recorded no stream (a subagent's, or one written before streams were kept). */
function streamOf(message: AssistantMessage): StreamedPart[] {
  const parts: StreamedPart[] = [];
  for (const { id, text, providerMetadata } of message.reasoning ?? []) {
    parts.push({ type: 'reasoning-start', messageId: id }, ...(text ? [{ type: 'reasoning-delta' as const, messageId: id, delta: text }] : []), {
      type: 'reasoning-end',
      messageId: id,
      ...(providerMetadata ? { providerMetadata } : {}),
    });
  }
  if (message.content) {
    parts.push(
      { type: 'text-start', messageId: message.id },
      { type: 'text-delta', messageId: message.id, delta: message.content },
      { type: 'text-end', messageId: message.id },
    );
  }
  for (const call of message.toolCalls ?? []) {
    parts.push(
      { type: 'tool-call-start', toolCallId: call.id, toolName: call.name, parentMessageId: message.id },
      { type: 'tool-call-delta', toolCallId: call.id, delta: JSON.stringify(call.input ?? {}) },
      { type: 'tool-call-end', toolCallId: call.id },
    );
  }
  return parts;
}

/** The sources a step cited, as one part after its stream (its metadata stays in the log). */
function sourcesOf(message: AssistantMessage): RunPart[] {
  if (!message.sources?.length) return [];
  return [{ type: 'sources', messageId: message.id, sources: message.sources.map(({ url, title }) => ({ url, ...(title ? { title } : {}) })) }];
}
