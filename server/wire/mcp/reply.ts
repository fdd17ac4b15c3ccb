// A run as the reply of an `ask_<agent>` tool (docs/mcp.md): the text the agent wrote, and how
// the run ended — done, paused on interrupts a person must decide, or failed.
import type { FoundCode } from '../../error-codes';
import type { InterruptRecord } from '../../events';
import type { StartedRun } from '../../runtime';

interface RunReply {
  /** The run's text, one paragraph per model step that wrote some. */
  text: string[];
  /** The interrupts the run paused on; empty when it finished. */
  interrupts: InterruptRecord[];
  error?: { code: FoundCode; message: string };
}

export async function collectReply(run: StartedRun): Promise<RunReply> {
  const reply: RunReply = { text: [], interrupts: [] };
  let open: string | undefined;
  const close = () => {
    if (open?.trim()) reply.text.push(open.trim());
    open = undefined;
  };
  for await (const part of run.parts) {
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
        return reply;
      case 'run-finished':
        close();
        if (part.outcome.type === 'interrupt') reply.interrupts = part.interrupts ?? [];
        return reply;
      default:
        break;
    }
  }
  close();
  return reply;
}
