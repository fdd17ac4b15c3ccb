// What a tool call's result writes to the log: the tool message the model reads (an error
// result is marked so), the tool's output for the audit trail, and the state its draft changed
// as an RFC 6902 delta (docs/architecture.md, "One log, one fold").
import { randomUUID } from 'node:crypto';
import type { JsonObject, SessionEvent, ToolCall, ToolMessage } from '../events';
import { statePatch } from './client-state';
import type { ResultOutcome } from './run-types';

export function toolResultEvents(scope: string | undefined, call: ToolCall, outcome: ResultOutcome, stateBefore: JsonObject): SessionEvent[] {
  const message: ToolMessage = {
    id: randomUUID(),
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: outcome.content,
    ...(outcome.ok ? {} : { isError: true }),
  };
  const patch = statePatch(stateBefore, outcome.state);
  return [
    {
      type: 'tool_result',
      message,
      output: outcome.ok ? (outcome.output ?? null) : null,
      ...(outcome.status ? { status: outcome.status } : {}),
      ...(scope ? { scope } : {}),
    },
    ...(patch.length ? [{ type: 'state_patched' as const, patch }] : []),
  ];
}
