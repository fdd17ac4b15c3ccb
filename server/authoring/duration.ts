// Durations an agent author writes: '30s', '15m', '24h', '7d' or plain milliseconds. One parser
// for every such option (an approval's ttl, a tool's timeout) so they all read the same way.
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of a duration; `label` names the option in the error (e.g. 'ttl'). */
export function parseDuration(value: string | number, label = 'duration'): number {
  if (typeof value === 'number') {
    // Infinity is allowed: it is how a number says "no limit".
    if (Number.isNaN(value) || value < 0) throw new Error(`Invalid ${label} ${value}: use a non-negative number of milliseconds.`);
    return value;
  }
  const match = DURATION.exec(value.trim());
  if (!match) throw new Error(`Invalid ${label} "${value}": use e.g. '30s', '15m', '24h', '7d' or milliseconds.`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** A duration as an author would write it, exactly: in the largest unit that divides it ('30d', '90m', '1500ms'). parseDuration reads it back. */
export function formatDuration(ms: number): string {
  const unit = (['d', 'h', 'm', 's'] as const).find((name) => ms >= UNIT_MS[name] && ms % UNIT_MS[name] === 0);
  return unit ? `${ms / UNIT_MS[unit]}${unit}` : `${ms}ms`;
}
