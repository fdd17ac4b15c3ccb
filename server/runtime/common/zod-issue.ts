// The first problem zod found in a value, as a refusal names it: where, and what is wrong.
// Each caller words the where its own way (a dotted field, a JSON Pointer, an API's param).
import type { z } from 'zod';

export interface ZodProblem {
  /** The path inside the value; empty for the value itself. */
  path: PropertyKey[];
  message: string;
}

export function firstIssue(error: z.ZodError): ZodProblem {
  const issue = error.issues[0];
  return { path: issue?.path ?? [], message: issue?.message ?? 'invalid value' };
}

/** `field.sub: message`, or `<root>: message` for the value itself. */
export function describeIssue(error: z.ZodError, root: string): string {
  const { path, message } = firstIssue(error);
  return `${path.map(String).join('.') || root}: ${message}`;
}
