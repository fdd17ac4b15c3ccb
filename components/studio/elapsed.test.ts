// Waits and times to decide, as Studio's approval metrics print them: two units at most, rounded
// down (a wait of 59.9 s has not reached a minute), tenths only under ten seconds.
import { describe, expect, it } from 'vitest';
import { formatElapsed } from './elapsed';

describe('formatElapsed', () => {
  it('says tenths of a second under ten seconds, whole seconds up to a minute', () => {
    expect(formatElapsed(0)).toBe('0.0 s');
    expect(formatElapsed(849)).toBe('0.8 s');
    expect(formatElapsed(9_999)).toBe('9.9 s');
    expect(formatElapsed(10_000)).toBe('10 s');
    expect(formatElapsed(59_999)).toBe('59 s');
  });

  it('says the two largest units, leaving out a smaller one that is nought', () => {
    expect(formatElapsed(60_000)).toBe('1 min');
    expect(formatElapsed(185_000)).toBe('3 min 5 s');
    expect(formatElapsed(2 * 3_600_000 + 10 * 60_000 + 59_000)).toBe('2 h 10 min');
    expect(formatElapsed(3 * 86_400_000 + 4 * 3_600_000 + 59 * 60_000)).toBe('3 d 4 h');
    expect(formatElapsed(40 * 86_400_000)).toBe('40 d');
  });
});
