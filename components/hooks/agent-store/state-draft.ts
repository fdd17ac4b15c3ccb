// The user's edits to the shared state: merged on screen at once, saved on the server once the
// edits pause (POST {url}/state, docs/internals/architecture.md's `state_patched`) without a message,
// and while a turn runs kept for the next run, which carries them as its state. Only keys the
// agent declares editable are kept by the server (docs/security.md).
import type { State } from '@ag-ui/client';
import type { SnapshotHost } from './snapshot';
import type { ThreadCommands } from './thread-commands';
import type { ThreadHttpAgent } from './thread-http-agent';

export interface StateDraftHost extends SnapshotHost {
  readonly agent: Pick<ThreadHttpAgent, 'state' | 'setState'>;
  readonly commands: Pick<ThreadCommands, 'writeState'>;
}

/** How long the state edits must pause before they are saved (the draft as the user types). */
const SAVE_DELAY_MS = 600;

export class StateDraft {
  /** State the user changed since the last run started; it rides along with the next run. */
  private unsent: Record<string, unknown> | null = null;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly host: StateDraftHost) {}

  /** The agent's state with the unsent edits on top: what the user sees. */
  visible(): State {
    return this.unsent ? { ...this.host.agent.state, ...this.unsent } : this.host.agent.state;
  }

  edit(partial: Record<string, unknown>): void {
    this.unsent = { ...this.unsent, ...partial };
    this.host.publish({ state: this.visible() });
    this.scheduleSave();
  }

  /** Hands the unsent edits to the run about to start: HttpAgent sends agent.state as RunAgentInput.state. */
  flushIntoRun(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (!this.unsent) return;
    // The server's snapshot then confirms it.
    this.host.agent.setState({ ...this.host.agent.state, ...this.unsent });
    this.unsent = null;
  }

  /** A run ended: an edit made while it ran is saved now. */
  runEnded(): void {
    if (this.unsent && this.host.getSnapshot().status !== 'running') this.scheduleSave();
  }

  private scheduleSave(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.save(), SAVE_DELAY_MS);
  }

  /** Saves the unsent state now; a refusal keeps it for the next try or the next run. */
  private async save(): Promise<void> {
    this.saveTimer = null;
    const sending = this.unsent;
    if (!sending || this.host.getSnapshot().status === 'running') return;
    try {
      const written = await this.host.commands.writeState(sending);
      if ('error' in written) {
        // A run started meanwhile: the change goes with it, or is saved when it ends.
        if (written.error.code !== 'session_busy') this.host.publish({ error: written.error });
        return;
      }
      // Edits made while this one was on its way stay unsent.
      if (this.unsent === sending) this.unsent = null;
      this.host.agent.setState(written.state);
      this.host.publish({ state: this.visible(), threadExists: true });
    } catch {
      // Offline: it goes with the next run.
    }
  }
}
