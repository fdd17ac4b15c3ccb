// The thread's commands between and beside runs, each one POST to an endpoint beside the
// agent's AG-UI route (docs/turn-control.md): the queue, steer, stop, a state write, a
// decision. They all go through one helper (post): the same body (`{threadId, ...}`), the
// same headers, the same reading of a refusal.
import { randomUUID, type State } from '@ag-ui/client';
import type { QueueItem } from '@/server/contract';
import { toAgentError, type AgentError } from './agent-error';
import type { SnapshotHost } from './snapshot';
import type { ThreadHttpAgent } from './thread-http-agent';

export interface ThreadCommandsHost extends SnapshotHost {
  /** Its fetch: tests pass their own through the agent. */
  readonly agent: Pick<ThreadHttpAgent, 'fetch'>;
  /** The agent's AG-UI route; the endpoints are beside it. */
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly threadId: string;
  /** The server took a write on the thread: it exists now, and its session stream is worth listening to. */
  threadKnown(): void;
}

/** A change to the queue (POST {url}/queue). */
export type QueueChange =
  | { op: 'add'; id: string; text: string }
  | { op: 'edit'; id: string; text: string }
  | { op: 'move'; id: string; index: number }
  | { op: 'remove' | 'sendNow'; id: string };

type Endpoint = 'queue' | 'steer' | 'stop' | 'state' | 'decide';

/** What the server made of a decision sent beside a run: a vote short of the quorum, or the decision. */
export interface VoteAnswer {
  decision: unknown;
  vote?: unknown;
}

/** The server's answer to a command: its JSON, and the refusal as the chat shows it. */
interface Answer<T> {
  ok: boolean;
  answer: Partial<T>;
  error?: AgentError;
}

export class ThreadCommands {
  /** The last queue change sent: the next one waits for its answer. */
  private queueChanges: Promise<unknown> = Promise.resolve();

  constructor(private readonly host: ThreadCommandsHost) {}

  /**
   * A change to the queue; false when it was refused or not sent (the error shows). Changes go
   * one at a time, in the order made: two sent together (two messages queued in a row) could be
   * taken by the server in either order, and their answers could arrive in either order — the
   * older queue shown over the newer, a message seemingly dropped.
   */
  changeQueue(change: QueueChange): Promise<boolean> {
    const sent = this.queueChanges.then(() =>
      this.shownCommand<{ queue: QueueItem[] }>('queue', change, 'The queue refused the change', (answer) => {
        if (answer.queue) this.setQueue(answer.queue);
      }),
    );
    this.queueChanges = sent;
    return sent;
  }

  /** The thread's queue as the server sent it (an answer, or the session stream's `stackbone.queue`). */
  setQueue(queue: QueueItem[]): void {
    if (JSON.stringify(queue) !== JSON.stringify(this.host.getSnapshot().queue)) this.host.publish({ queue });
  }

  /** Guidance for the run in progress (docs/turn-control.md, "Steer"); false when it was not taken. */
  async steer(runId: string, text: string): Promise<boolean> {
    try {
      return (await this.post('steer', { runId, text, id: randomUUID() })).ok;
    } catch {
      return false;
    }
  }

  /**
   * A persisted stop of the run (docs/hitl.md, "Stopping a run"), naming the last event this
   * tab showed: the server keeps the reply exactly as far as the user read it. False when the
   * stop could not be sent or was refused.
   */
  async stop(runId: string | null, frontier: string | null): Promise<boolean> {
    try {
      return (await this.post('stop', { runId, frontier })).ok;
    } catch {
      return false;
    }
  }

  /** Writes shared state without a message (POST {url}/state): the state the server kept, or the refusal. */
  async writeState(state: Record<string, unknown>): Promise<{ state: State } | { error: AgentError }> {
    const { answer, error } = await this.post<{ state: State }>('state', { state }, 'The state was not saved');
    if (error) return { error };
    this.host.threadKnown();
    return { state: answer.state };
  }

  /**
   * Approves or rejects one interrupt outside a run (POST {url}/decide): a vote on a call that
   * needs several approvers. The server's answer — the vote, or the decision it completed — or
   * null when refused or not sent (the error shows).
   */
  async vote(interruptId: string, approved: boolean, options: { reason?: string; payload?: unknown; editedArgs?: unknown } = {}): Promise<VoteAnswer | null> {
    let answered: Partial<VoteAnswer> = {};
    const body = { interruptId, action: approved ? 'approve' : 'reject', ...options };
    const taken = await this.shownCommand<VoteAnswer>('decide', body, 'The decision was refused', (answer) => (answered = answer));
    return taken ? { decision: answered.decision ?? null, ...(answered.vote ? { vote: answered.vote } : {}) } : null;
  }

  /** Rejects one interrupt outside a run (POST {url}/decide); false when refused or not sent (the error shows). */
  reject(interruptId: string, reason?: string): Promise<boolean> {
    return this.shownCommand('decide', { interruptId, action: 'reject', ...(reason ? { reason } : {}) }, 'The decision was refused');
  }

  /**
   * A command whose refusal the chat shows: false when it was refused or could not be sent.
   * Taken, it tells the store the thread exists (its first turn may still be streaming).
   * `answered` reads the answer, refused or not (a refused queue change still says the queue).
   */
  private async shownCommand<T>(endpoint: Endpoint, body: object, refused: string, answered?: (answer: Partial<T>) => void): Promise<boolean> {
    try {
      const { answer, error } = await this.post<T>(endpoint, body, refused);
      answered?.(answer);
      if (error) {
        this.host.publish({ error });
        return false;
      }
      this.host.threadKnown();
      return true;
    } catch (error) {
      this.host.publish({ error: toAgentError(error) });
      return false;
    }
  }

  /**
   * POSTs `{threadId, ...body}` to one of the thread's endpoints and reads the JSON answer;
   * `error` is the refusal as the chat shows it (`refused` names what was refused).
   */
  private async post<T>(endpoint: Endpoint, body: object, refused = `The ${endpoint} request was refused`): Promise<Answer<T>> {
    const response = await this.host.agent.fetch(`${this.host.url}/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...this.host.headers },
      body: JSON.stringify({ threadId: this.host.threadId, ...body }),
    });
    const answer = (await response.json().catch(() => ({}))) as Partial<T> & { error?: { code?: string; message?: string } };
    if (response.ok) return { ok: true, answer };
    return { ok: false, answer, error: { message: answer.error?.message ?? `${refused} (HTTP ${response.status}).`, code: answer.error?.code, refused: true } };
  }
}
