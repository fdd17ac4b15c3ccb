// The sources a model step cited (a web search's results), under the reply they back: each a
// link that names its site, so the reader sees where it goes before following it. Only http(s)
// addresses become links; the model's text is untrusted (docs/security.md, "Browsers").
import { LinkIcon } from 'lucide-react';
import type { SourcesContent } from '@/server/contract';

export function SourcesList({ content }: { content: SourcesContent }) {
  const sources = content.sources.flatMap((source) => {
    const site = siteOf(source.url);
    return site ? [{ ...source, site }] : [];
  });
  if (!sources.length) return null;
  return (
    <nav aria-label="Sources" className="-mt-2 flex flex-col gap-1 text-sm" data-testid="sources">
      <span className="text-xs font-medium text-muted-foreground">Sources</span>
      <ol className="flex flex-wrap gap-2">
        {sources.map((source, index) => (
          <li key={`${index}-${source.url}`}>
            <a
              href={source.url}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className="inline-flex max-w-72 items-center gap-1.5 rounded-full border bg-card px-2.5 py-1 hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
            >
              <LinkIcon className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
              <span className="truncate">{source.title ?? source.site}</span>
              {source.title && <span className="shrink-0 text-xs text-muted-foreground">{source.site}</span>}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The host of an http(s) address; null for anything else (javascript:, data:, a broken URL). */
export function siteOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.hostname.replace(/^www\./, '') : null;
  } catch {
    return null;
  }
}
