// What a tool call's result writes to the log: the tool message the model reads (an error
// result is marked so), the tool's output for the audit trail, and the state its draft changed
// as an RFC 6902 delta (docs/internals/architecture.md, "One log, one fold").
import { randomUUID } from 'node:crypto';
import { applyOperation, compare, deepClone } from 'fast-json-patch';
import type { SessionEvent } from '../../store/events';
import type { JsonObject, ToolCall, ToolMessage } from '../../store/messages';
import { statePatch } from '../session';
import type { ResultOutcome } from './run-types';

/**
 * A draft made from `base`, merged into `current` (which concurrent calls may have changed
 * since): what the tool changed is applied over what it did not touch. Where two calls changed
 * the same value, the later result wins; a change that no longer applies (its parent is gone)
 * is dropped.
 */
function mergeDraft(base: JsonObject, draft: JsonObject, current: JsonObject): JsonObject {
  if (base === current) return draft;
  let merged = deepClone(current) as JsonObject;
  for (const operation of compare(base, draft)) {
    try {
      merged = applyOperation(merged, operation, false, true).newDocument as JsonObject;
    } catch {
      // e.g. a change inside an object another call removed
    }
  }
  return merged;
}

export function toolResultEvents(scope: string | undefined, call: ToolCall, outcome: ResultOutcome, stateBefore: JsonObject): SessionEvent[] {
  const message: ToolMessage = {
    id: randomUUID(),
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: outcome.content,
    ...(outcome.ok ? {} : { isError: true }),
  };
  const patch = statePatch(stateBefore, outcome.base ? mergeDraft(outcome.base, outcome.state, stateBefore) : outcome.state);
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
