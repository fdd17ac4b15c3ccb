// Cursors: where a client is in a thread's stream. Every part a client receives has one,
// `<seq>.<j>`: the log seq of the event it derives from and its index among that event's
// parts. A model step's live deltas carry the seq its coalesced event will be written at,
// so the live stream and a replay from the log name every part alike (docs/internals/architecture.md,
// "Streams and cursors"). `-1` is before the first part.

export type Cursor = string;

const START: Cursor = '-1';

export interface CursorPosition {
  seq: number;
  j: number;
}

const FORM = /^(?:-1|(\d+)(?:\.(\d+))?)$/;

/** A cursor from a client (query string or Last-Event-ID); null when it is not one. */
export function parseCursor(value: string | null | undefined): CursorPosition | null {
  const match = FORM.exec(value?.trim() ?? '');
  if (!match) return null;
  if (match[1] === undefined) return { seq: -1, j: -1 };
  // A bare `<seq>` means after every part of that event.
  return { seq: Number(match[1]), j: match[2] === undefined ? Number.MAX_SAFE_INTEGER : Number(match[2]) };
}

export function formatCursor(seq: number, j: number): Cursor {
  return `${seq}.${j}`;
}

/** Just after every part of event `seq`: where a reader of the log up to `seq` goes on from. */
export function afterEvent(seq: number): Cursor {
  return seq > 0 ? String(seq) : START;
}

export function compareCursor(a: CursorPosition, b: CursorPosition): number {
  return a.seq - b.seq || a.j - b.j;
}
