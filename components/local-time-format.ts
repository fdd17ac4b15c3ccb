// A moment as a person reads it in their own time zone and locale: "Today 13:34", "Yesterday
// 9:02", "Dec 1, 13:34", and the year once it is not this one. Only the browser knows the
// zone, so components/local-time.tsx calls this after hydration.
export function formatLocalTime(at: Date, now: Date, options: { seconds?: boolean; locale?: string; timeZone?: string } = {}): string {
  const { locale, timeZone } = options;
  const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', ...(options.seconds ? { second: '2-digit' } : {}), timeZone }).format(at);
  const day = (date: Date) => new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(date);
  if (day(at) === day(now)) return `Today ${time}`;
  if (day(at) === day(new Date(now.getTime() - 86_400_000))) return `Yesterday ${time}`;
  const sameYear = day(at).slice(0, 4) === day(now).slice(0, 4);
  const date = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }), timeZone }).format(at);
  return `${date}, ${time}`;
}

/** The same moment spelled out in full, for a tooltip. */
export function formatFullLocalTime(at: Date, options: { locale?: string; timeZone?: string } = {}): string {
  return new Intl.DateTimeFormat(options.locale, { dateStyle: 'full', timeStyle: 'long', timeZone: options.timeZone }).format(at);
}

/** What the server renders before the browser's zone is known: the UTC time, said to be UTC. */
export function utcFallback(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
