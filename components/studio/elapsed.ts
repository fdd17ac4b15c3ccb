// A span of time as a person reads it at a glance: the two largest units that matter, and a tenth
// of a second only under ten seconds ("0.8 s", "42 s", "3 min 5 s", "2 h 10 min", "3 d 4 h").
// Studio's approval metrics show the time to decide and each wait with it (docs/studio.md).

const UNITS = [
  { name: 'd', ms: 86_400_000 },
  { name: 'h', ms: 3_600_000 },
  { name: 'min', ms: 60_000 },
  { name: 's', ms: 1_000 },
] as const;

export function formatElapsed(ms: number): string {
  const span = Math.max(0, ms);
  if (span < 10_000) return `${(Math.floor(span / 100) / 10).toFixed(1)} s`;
  const index = UNITS.findIndex((unit) => span >= unit.ms);
  const [large, small] = [UNITS[index]!, UNITS[index + 1]];
  const whole = Math.floor(span / large.ms);
  const rest = small ? Math.floor((span % large.ms) / small.ms) : 0;
  return small && rest > 0 ? `${whole} ${large.name} ${rest} ${small.name}` : `${whole} ${large.name}`;
}
