// What "no event interleaves out of order" means for one session's log (docs/internals/architecture.md):
// seq runs 1..n with no gap or repeat, and runs follow one another — each run_started opens a
// run only when none is open, every other event belongs to the open run, and each run is closed
// by its own run_finished / run_failed before the next one starts.
import type { LoggedEvent } from './inspect';

/** Everything wrong with the log's order, as sentences; empty when it is in order and settled. */
export function logOrderProblems(log: LoggedEvent[]): string[] {
  const problems: string[] = [];
  let open: string | null = null;
  log.forEach(({ seq, event }, index) => {
    if (seq !== index + 1) problems.push(`seq ${seq} at position ${index + 1}`);
    if (event.type === 'run_started') {
      if (open) problems.push(`seq ${seq}: run ${event.runId} starts while run ${open} is open`);
      open = event.runId;
    } else if (event.type === 'run_finished' || event.type === 'run_failed') {
      if (open !== event.runId) problems.push(`seq ${seq}: ${event.type} of run ${event.runId} while ${open ?? 'no run'} is open`);
      open = null;
    } else if (!open) {
      problems.push(`seq ${seq}: ${event.type} outside any run`);
    }
  });
  if (open) problems.push(`run ${open} never finished`);
  return problems;
}
