// A session's title, the one rule for every place that shows or stores one (the sidebar, the
// session list, Studio): its first user message, on one line, cut at a word.

/** The longest title, in characters (the cut adds an ellipsis). */
const TITLE_LENGTH = 80;

/** A session's title: its first user message, on one line, cut at a word. */
export function sessionTitle(text: string, max = TITLE_LENGTH): string {
  // Control characters (NUL above all: PostgreSQL text cannot hold it) never reach a title.
  const line = text
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2))}…`;
}
