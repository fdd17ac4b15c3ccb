// requestInput(): a tool asks a person for input mid-call (docs/hitl.md, "Asking for input"). The first
// time, the call pauses with an `input_required` interrupt; when the answer arrives, the tool
// runs again from the top and the same requestInput() call returns the validated answer —
// so a tool that asks must be safe to re-run up to its question (use the idempotency key).
import { AsyncLocalStorage } from 'node:async_hooks';
import { z } from 'zod';
import type { JsonObject } from '../../events';

/** Thrown inside a tool to pause its call; the runtime turns it into an interrupt. */
export class InputRequired extends Error {
  constructor(readonly request: { message: string; responseSchema: JsonObject }) {
    super(`Input required: ${request.message}`);
    this.name = 'InputRequired';
  }
}

interface Answers {
  values: unknown[];
  next: number;
}

const answers = new AsyncLocalStorage<Answers>();

/** Runs a tool with the answers its earlier requestInput() calls received, in order. */
export function runWithInputAnswers<T>(values: unknown[], fn: () => T): T {
  return answers.run({ values, next: 0 }, fn);
}

export async function requestInput<T>(request: { message: string; responseSchema: z.ZodType<T> }): Promise<T> {
  const state = answers.getStore();
  if (!state) throw new Error('requestInput() is only available inside a tool run by the Stackbone runtime.');
  const index = state.next++;
  if (index < state.values.length) return request.responseSchema.parse(state.values[index]);
  throw new InputRequired({ message: request.message, responseSchema: z.toJSONSchema(request.responseSchema) as JsonObject });
}
