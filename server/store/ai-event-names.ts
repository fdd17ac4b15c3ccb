// The log's events under experimental-a2's names (docs/seed-names.md, "Log events"). Our log
// names its events for what the runtime records (server/store/events.ts); an app written against
// the seed reads them by the seed's names through here. Only names whose meaning we have are
// given: there are no session lifecycle events (`ai.session.created`, `ai.session.closed`).
import type { SessionEvent, StoredEvent } from './events';

export type AiEventName = 'ai.approval.requested' | 'ai.tool.result';

/**
 * The seed's name for an event of our log, or undefined when it has none. `ai.tool.result` is
 * every result a call gets, as the seed counts them: a final output or error, a denial or
 * cancellation (`tool_result`), a preliminary output (`tool_progress`), and a browser tool's
 * result (a `role: 'tool'` message). `ai.approval.requested` is a batch of interrupts opened
 * that holds a tool call's approval (a decision on one is `interrupt_decided`, which the seed
 * does not name).
 */
export function aiEventName(event: SessionEvent): AiEventName | undefined {
  switch (event.type) {
    case 'tool_result':
    case 'tool_progress':
      return 'ai.tool.result';
    case 'message_added':
      return event.message.role === 'tool' ? 'ai.tool.result' : undefined;
    case 'interrupts_opened':
      return event.interrupts.some((interrupt) => interrupt.reason === 'tool_call') ? 'ai.approval.requested' : undefined;
    default:
      return undefined;
  }
}

/** The stored events the seed would call `name`, in log order: `aiEvents(await store.readEvents(id), 'ai.tool.result')`. */
export function aiEvents(events: readonly StoredEvent[], name: AiEventName): StoredEvent[] {
  return events.filter((stored) => aiEventName(stored.event) === name);
}
