// Studio's decision export (docs/replay.md, "Exporting decisions"): the decisions the signed-in
// key may see, downloaded as JSONL — the same file `stackbone export --decisions` prints.
import { DownloadIcon } from 'lucide-react';
import { Button } from '../ui/button';

export function DecisionsExport() {
  return (
    <section aria-labelledby="decisions-export-title" className="mt-10 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <h2 id="decisions-export-title" className="text-lg font-semibold tracking-tight">
          Decisions made
        </h2>
        <p className="text-sm text-muted-foreground">
          Every decided approval and question you may see, one JSON line each: for an audit, or to replay as a test.
        </p>
      </div>
      <Button asChild variant="secondary" size="sm">
        <a href="/api/hitl/decisions" download="decisions.jsonl" data-testid="decisions-export">
          <DownloadIcon aria-hidden />
          Export decisions (JSONL)
        </a>
      </Button>
    </section>
  );
}
