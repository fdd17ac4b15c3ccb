// A run as the reply of an `ask_<agent>` tool (docs/mcp.md): the text the agent wrote, and how
// the run ended — done, paused on interrupts a person must decide, or failed.
import type { FoundCode } from '../../error-codes';
import type { InterruptRecord } from '../../store/pauses';
import { parseCursor, type StreamPart } from '../../runtime';

export interface RunReply {
  /** The run's text, one paragraph per model step that wrote some. */
  text: string[];
  /** The interrupts the run paused on; empty when it finished. */
  interrupts: InterruptRecord[];
  error?: { code: FoundCode; message: string };
  /** False when the parts ran out before the run ended (a followed session whose wait ran out). */
  ended: boolean;
  /**
   * Where the log stood when the run ended: its last event's seq. What a decision on its
   * interrupts starts comes after it, whenever and wherever that decision is made.
   */
  endSeq?: number;
}

/** The reply of the first run in `parts` (a started run's, or a followed session's from a cursor). */
export async function collectReply(parts: AsyncIterable<StreamPart>): Promise<RunReply> {
  const reply: RunReply = { text: [], interrupts: [], ended: false };
  let open: string | undefined;
  const close = () => {
    if (open?.trim()) reply.text.push(open.trim());
    open = undefined;
  };
  for await (const { part, cursor } of parts) {
    const seq = parseCursor(cursor)?.seq;
    if (seq !== undefined) reply.endSeq = seq;
    switch (part.type) {
      case 'text-start':
        close();
        open = '';
        break;
      case 'text-delta':
        open = (open ?? '') + part.delta;
        break;
      case 'text-end':
        close();
        break;
      case 'run-error':
        close();
        reply.error = { code: part.code, message: part.message };
        reply.ended = true;
        return reply;
      case 'run-finished':
        close();
        if (part.outcome.type === 'interrupt') reply.interrupts = part.interrupts ?? [];
        reply.ended = true;
        return reply;
      default:
        break;
    }
  }
  close();
  return reply;
}
