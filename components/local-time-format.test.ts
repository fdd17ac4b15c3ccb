// Times read as a person reads them in their own zone: today and yesterday by name, other days
// by date, the year only when it is not this one — and the day is the zone's day, not UTC's.
import { describe, expect, it } from 'vitest';
import { formatLocalTime, utcFallback } from './local-time-format';

const now = new Date('2026-12-01T18:00:00Z');
const en = { locale: 'en-GB', timeZone: 'Europe/Berlin' };

describe('formatLocalTime', () => {
  it('says Today and Yesterday, in the zone of the reader', () => {
    expect(formatLocalTime(new Date('2026-12-01T12:34:00Z'), now, en)).toBe('Today 13:34');
    expect(formatLocalTime(new Date('2026-11-30T08:02:00Z'), now, en)).toBe('Yesterday 9:02');
    // 23:30 UTC on Nov 30 is already Dec 1 in Berlin.
    expect(formatLocalTime(new Date('2026-11-30T23:30:00Z'), now, en)).toBe('Today 0:30');
  });

  it('names older days by date, with the year only for another year, and seconds on request', () => {
    expect(formatLocalTime(new Date('2026-11-02T12:34:00Z'), now, en)).toBe('2 Nov, 13:34');
    expect(formatLocalTime(new Date('2025-11-02T12:34:00Z'), now, en)).toBe('2 Nov 2025, 13:34');
    expect(formatLocalTime(new Date('2026-12-01T12:34:56Z'), now, { ...en, seconds: true })).toBe('Today 13:34:56');
    expect(formatLocalTime(new Date('2026-11-02T12:34:00Z'), now, { locale: 'en-US', timeZone: 'America/New_York' })).toBe('Nov 2, 7:34 AM');
  });

  it('before the zone is known, shows the UTC time and says so', () => {
    expect(utcFallback('2026-12-01T12:34:56.789Z')).toBe('2026-12-01 12:34 UTC');
  });
});
