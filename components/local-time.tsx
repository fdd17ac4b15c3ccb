'use client';
// A time in the browser's own zone and locale (components/local-time-format.ts). The server
// cannot know the zone, so the first paint is the UTC time, marked as such, and the page
// switches to local time once it hydrates — the same text on both sides, no mismatch.
import { formatFullLocalTime, formatLocalTime, utcFallback } from './local-time-format';
import { useHydrated } from './use-hydrated';

export function LocalTime({ iso, seconds = false, className }: { iso: string; seconds?: boolean; className?: string }) {
  const hydrated = useHydrated();
  const at = new Date(iso);
  const valid = !Number.isNaN(at.getTime());
  return (
    <time dateTime={iso} className={className} title={hydrated && valid ? formatFullLocalTime(at) : undefined}>
      {hydrated && valid ? formatLocalTime(at, new Date(), { seconds }) : utcFallback(iso)}
    </time>
  );
}
