// Shared state written by clients: only the agent's editableState keys are kept, each
// validated; a bad value refuses the whole update (nothing is applied).
import { compare, deepClone, type Operation } from 'fast-json-patch';
import { z } from 'zod';
import type { EditableStateSpec } from '../../authoring';
import type { JsonObject } from '../../store/messages';
import { Refusal } from '../errors';
import { own, zodFromJsonSchema, firstIssue } from '../common';

function toZod(spec: EditableStateSpec): z.ZodType {
  return spec instanceof z.ZodType ? spec : zodFromJsonSchema(spec);
}

/**
 * The patch that applies a client's state to the current state: editable keys only,
 * validated. Returns [] when nothing changes.
 */
export function clientStatePatch(current: JsonObject, incoming: unknown, editable: Record<string, EditableStateSpec>): Operation[] {
  if (incoming === undefined || incoming === null) return [];
  if (typeof incoming !== 'object' || Array.isArray(incoming)) {
    throw new Refusal('invalid_state', 'state must be a JSON object.', { path: '/' });
  }
  const next = deepClone(current) as JsonObject;
  for (const [key, value] of Object.entries(incoming as JsonObject)) {
    const spec = own(editable, key);
    if (!spec) continue; // Not a client-writable key: dropped, the server's value stands.
    const parsed = toZod(spec).safeParse(value);
    if (!parsed.success) {
      const issue = firstIssue(parsed.error);
      const path = '/' + [key, ...issue.path].map(String).join('/');
      throw new Refusal('invalid_state', `state${path.replaceAll('/', '.')}: ${issue.message}`, { path });
    }
    next[key] = parsed.data;
  }
  return compare(current, next);
}

/** The RFC 6902 delta from one state to another (what a tool's draft changed). */
export function statePatch(before: JsonObject, after: JsonObject): Operation[] {
  return compare(before, after);
}
