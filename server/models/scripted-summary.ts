// What the scripted model answers a summary request (summary-request.ts; docs/models.md, "Long
// threads"): a short summary of the transcript it was sent — the user's requests and the tools'
// outcomes, in order, each cut short, after what an earlier summary said. Linear in the request,
// and bounded in size whatever its length, as every rule of the scripted model (scripted-reply.ts).
import { SUMMARY_REQUEST, TRANSCRIPT_LABELS as LABEL } from './summary-request';

/** Of each kind, the latest this many entries are named; older ones are counted. */
const NAMED = 8;
/** Each named entry is cut to this many characters. */
const ENTRY_CHARS = 100;
/** An earlier summary is carried over up to this many characters. */
const EARLIER_CHARS = 600;

export function isSummaryRequest(text: string): boolean {
  return text.startsWith(SUMMARY_REQUEST);
}

export function summariseTranscript(text: string): string {
  const requests: string[] = [];
  const outcomes: string[] = [];
  let earlier = '';
  for (const line of text.slice(SUMMARY_REQUEST.length).split('\n')) {
    if (line.startsWith(LABEL.summary)) earlier = cut(line.slice(LABEL.summary.length), EARLIER_CHARS);
    else if (line.startsWith(LABEL.user)) requests.push(`"${cut(line.slice(LABEL.user.length), ENTRY_CHARS)}"`);
    else if (line.startsWith(LABEL.result)) outcomes.push(outcome(line.slice(LABEL.result.length), false));
    else if (line.startsWith(LABEL.error)) outcomes.push(outcome(line.slice(LABEL.error.length), true));
  }
  const parts = [
    earlier && `Before that: ${earlier}`,
    requests.length ? sentence(`The user asked: ${named(requests)}`) : 'The user asked nothing yet.',
    outcomes.length ? sentence(`Tool results: ${named(outcomes)}`) : 'No tool ran.',
  ];
  return parts.filter(Boolean).join(' ');
}

/** `name: content` → `name → what it said` (a result's own `summary` field when it has one). */
function outcome(entry: string, failed: boolean): string {
  const colon = entry.indexOf(':');
  const name = entry.slice(0, colon).trim();
  const content = entry.slice(colon + 1).trim();
  let said = content;
  try {
    const parsed: unknown = JSON.parse(content);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { summary?: unknown }).summary === 'string') said = (parsed as { summary: string }).summary;
  } catch {
    // Not JSON (or cut short): the text itself.
  }
  // Each outcome ends where the list goes on: no sentence's own full stop in the middle of it.
  return `${name}${failed ? ' failed' : ''} → ${cut(said, ENTRY_CHARS).replace(/\.+$/, '')}`;
}

/** The latest NAMED entries, with how many came before them. */
function named(entries: string[]): string {
  const shown = entries.slice(-NAMED).join('; ');
  const more = entries.length - NAMED;
  return more > 0 ? `${more} earlier, then ${shown}` : shown;
}

/** A full stop, unless the text ends cut short. */
function sentence(text: string): string {
  return text.endsWith('…') ? text : `${text}.`;
}

function cut(text: string, chars: number): string {
  const trimmed = text.trim();
  return trimmed.length > chars ? `${trimmed.slice(0, chars - 1)}…` : trimmed;
}
