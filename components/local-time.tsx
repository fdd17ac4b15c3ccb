'use client';
// PLACEHOLDER until the Studio branch lands its version.
import { useHydrated } from './use-hydrated';

export function LocalTime({ iso, className }: { iso: string; className?: string }) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  return (
    <time dateTime={iso} className={className}>
      {hydrated ? date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : iso.slice(0, 16).replace('T', ' ')}
    </time>
  );
}
