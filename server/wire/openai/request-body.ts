// An OpenAI-style request body read against its schema: the first problem is a 400
// `invalid_request` whose `param` names the field the way OpenAI does (`input[0].content`), on
// the Chat Completions and the Responses wire alike (docs/internals/wires.md, "Errors").
import type { z } from 'zod';
import { HttpError } from '../../http/errors';
import { firstIssue } from '../../runtime';

/** OpenAI's way of naming a field: messages[0].content. */
function paramOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)), '');
}

/** A 400 for one field, in OpenAI's words: "Invalid 'messages[0].content': …". */
export function invalidParam(param: string, message: string): HttpError {
  return new HttpError('invalid_request', `Invalid '${param}': ${message}`, { param });
}

/** The body as `schema` reads it, or the 400 that names its first problem. */
export function readOpenAiBody<T>(schema: z.ZodType<T>, body: unknown): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError('invalid_request', 'The request body must be a JSON object.');
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = firstIssue(parsed.error);
  const param = paramOf(issue.path);
  throw param ? invalidParam(param, issue.message) : new HttpError('invalid_request', issue.message);
}

/** A tool call's JSON arguments as a client sent them (empty is `{}`), or the 400 naming the field. */
export function parseArguments(text: string, param: string): unknown {
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalidParam(param, 'not valid JSON.');
  }
}
