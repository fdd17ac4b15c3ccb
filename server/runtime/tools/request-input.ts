// requestInput(): a tool asks a person for input mid-call (docs/hitl.md, "Asking for input"). The first
// time, the call pauses with an `input_required` interrupt; when the answer arrives, the tool
// runs again from the top and the same requestInput() call returns the validated answer —
// so a tool that asks must be safe to re-run up to its question (use the idempotency key).
import { AsyncLocalStorage } from 'node:async_hooks';
import { z } from 'zod';
import type { JsonObject } from '../../store/messages';
import { jsonSchemaOf } from '../common';

/** What a tool asks a person. */
export interface InputRequest {
  message: string;
  responseSchema: JsonObject;
  /** A link the person is to open (an MCP server's URL-mode elicitation, docs/mcp.md). */
  url?: string;
  /**
   * A decline goes back to the tool, which runs again and is told (an MCP server's elicitation,
   * docs/mcp.md). Otherwise a decline answers the call as declined and the tool does not run again.
   */
  declineToTool?: true;
  /** Handed back with the answer: where to take the call up (an MCP server's round, docs/mcp.md). */
  resume?: JsonObject;
}

/** Thrown inside a tool to pause its call; the runtime turns it into an interrupt. */
export class InputRequired extends Error {
  constructor(readonly request: InputRequest) {
    super(`Input required: ${request.message}`);
    this.name = 'InputRequired';
  }
}

/**
 * A person's answer to one question a tool asked: a value, or a decline (seen only by a tool whose
 * declines come back to it); with the question's `resume`, when it was asked with one.
 */
export type InputAnswer = ({ status: 'answered'; value: unknown } | { status: 'declined'; reason?: string }) & { resume?: JsonObject };

/** The recorded answers of a running tool, read in the order it asks. */
interface InputAnswers {
  /** The next question's recorded answer; undefined when it has none yet. */
  next(): InputAnswer | undefined;
  /** Every recorded answer, in the order asked: a tool that takes up where it paused reads the last one's `resume`. */
  readonly all: readonly InputAnswer[];
}

const answers = new AsyncLocalStorage<InputAnswers>();

/** Runs a tool with the answers its earlier questions received, in order. */
export function runWithInputAnswers<T>(values: InputAnswer[], fn: () => T): T {
  let index = 0;
  return answers.run({ next: () => values[index++], all: values }, fn);
}

/** The running tool's recorded answers (for a tool that asks through something else than requestInput, as an MCP call does). */
export function recordedInputAnswers(): InputAnswers {
  const state = answers.getStore();
  if (!state) throw new Error('Only a tool run by the Stackbone runtime can ask a person for input.');
  return state;
}

export async function requestInput<T>(request: { message: string; responseSchema: z.ZodType<T> }): Promise<T> {
  const state = answers.getStore();
  if (!state) throw new Error('requestInput() is only available inside a tool run by the Stackbone runtime.');
  const answer = state.next();
  // A requestInput() question is never declined back to its tool: its decline ends the call (tool-gate.ts).
  if (answer?.status === 'answered') return request.responseSchema.parse(answer.value);
  throw new InputRequired({ message: request.message, responseSchema: jsonSchemaOf(request.responseSchema) as JsonObject });
}
