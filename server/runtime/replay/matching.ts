// Which recorded decision answers a replayed interrupt (docs/replay.md, "Decisions by call"): the
// one made on the same call — the same tool, deep-equal arguments — each used once, in the order
// they were made. Ids differ from run to run; the call is what a person decided on.
import { isDeepStrictEqual } from 'node:util';
import type { RecordedDecision } from './recording';

interface DecisionMatcher {
  /** The recorded decision for this call, taken (a second identical call takes the next one); undefined when none is left. */
  take(toolName: string, input: unknown): RecordedDecision | undefined;
  /** The recorded decisions no replayed call took: their call no longer happens (or not with those arguments). */
  unused(): RecordedDecision[];
}

export function decisionMatcher(recorded: readonly RecordedDecision[]): DecisionMatcher {
  const left = [...recorded];
  return {
    take(toolName, input) {
      const index = left.findIndex((decision) => decision.toolName === toolName && isDeepStrictEqual(decision.input, input));
      return index < 0 ? undefined : left.splice(index, 1)[0];
    },
    unused: () => [...left],
  };
}
