// The demo MCP server's notebook (docs/mcp.md, "The demo server"): `record_note`'s side effect,
// kept once per idempotency key. One notebook per MCP session, dropped with it, with room for a
// few short notes: whoever calls on cannot grow the process's memory (docs/security.md). With
// STACKBONE_LEDGER_FILE (the tests' fixture) each note is also written to that file, where a key
// counts across sessions, so a test can find the effect once.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

/** A line of the tests' ledger file (JSON, one a line): a side effect, made once per idempotency key. */
interface EffectLine {
  kind: 'effect';
  toolCallId: string;
  idempotencyKey: string;
  attempt: number;
  key: string;
  at: string;
}

/** Whether the ledger file already has an effect under this idempotency key. */
function effectIn(file: string, idempotencyKey: string): boolean {
  if (!existsSync(file)) return false;
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .some((text) => {
      const line = JSON.parse(text) as { kind?: string; idempotencyKey?: string };
      return line.kind === 'effect' && line.idempotencyKey === idempotencyKey;
    });
}
import { testSetting } from '../../../server/config';

/** The longest note, in characters. */
export const NOTE_MAX_CHARS = 500;
/** The longest idempotency key a note is kept under (the agent's are 69 characters). */
export const NOTE_KEY_MAX_CHARS = 200;
/** The most notes one MCP session keeps. */
export const NOTES_PER_SESSION = 20;

/** How a note fared: kept now, kept before under its key, or refused because the session's notebook is full. */
export type NoteOutcome = 'kept' | 'already' | 'full';

export function createNotebook(): { keep: (idempotencyKey: string, note: string) => NoteOutcome } {
  const notes = new Map<string, string>();
  return {
    keep(idempotencyKey, note) {
      const file = testSetting('STACKBONE_LEDGER_FILE');
      if (notes.has(idempotencyKey)) return 'already';
      if (file && effectIn(file, idempotencyKey)) return 'already';
      if (notes.size >= NOTES_PER_SESSION) return 'full';
      notes.set(idempotencyKey, note);
      if (file) {
        // An MCP server sees no tool call id: the idempotency key stands for it.
        const line: EffectLine = { kind: 'effect', toolCallId: idempotencyKey, idempotencyKey, attempt: 1, key: note, at: new Date().toISOString() };
        appendFileSync(file, JSON.stringify(line) + '\n');
      }
      return 'kept';
    },
  };
}
