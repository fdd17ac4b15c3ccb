// What a summary request looks like, to any model (docs/models.md, "Long threads"): the runtime
// writes the older part of a conversation as a plain transcript, one line per entry, under a
// fixed request; the scripted model reads the same lines back (scripted-summary.ts). Plain text
// rather than the conversation's own messages: a provider refuses tool calls in a request that
// offers no tools (Anthropic does), and a summary call offers none.

/** The request's first line; the transcript follows it. */
export const SUMMARY_REQUEST =
  'Summarise the earlier part of a conversation between a user and an assistant that uses tools, so that the assistant can go on without it.';

/** How the summariser is told to write (the call's instructions). */
export const SUMMARY_INSTRUCTIONS =
  'You write short, factual summaries of conversations. Keep what the user asked for, what the tools did and returned (ids, amounts, outcomes), decisions made and anything still open. No preamble.';

/** The label that starts each transcript line. */
export const TRANSCRIPT_LABELS = {
  summary: 'Summary of earlier turns:',
  system: 'System:',
  user: 'User:',
  assistant: 'Assistant:',
  call: 'Assistant called',
  result: 'Result of',
  error: 'Error from',
} as const;

/** One entry on one line, at most this long: a huge tool result does not make a huge summary request. */
const TRANSCRIPT_LINE_CHARS = 2_000;

/** One transcript line: its label and its text on one line, cut to TRANSCRIPT_LINE_CHARS. */
export function transcriptLine(label: string, text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const line = `${label} ${flat}`;
  return line.length > TRANSCRIPT_LINE_CHARS ? `${line.slice(0, TRANSCRIPT_LINE_CHARS - 1)}…` : line;
}

/** The whole request: the fixed first line, a blank line, the transcript. */
export function summaryRequest(lines: string[]): string {
  return `${SUMMARY_REQUEST}\n\n${lines.join('\n')}`;
}
