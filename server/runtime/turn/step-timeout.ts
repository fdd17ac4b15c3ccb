// How long one model call may take (docs/models.md, "Timeouts"). Without a limit a provider that
// accepts the request and then says nothing holds the session's run until the lease gives up.
import type { DeepAgent } from '../../authoring';
import { parseDuration } from '../../authoring/duration';
import { setting } from '../../config';

/** The agent's stepTimeout, else STACKBONE_STEP_TIMEOUT_MS, else 2 minutes; Infinity is none. */
export function stepTimeoutMs(agent: DeepAgent): number {
  if (agent.stepTimeout !== undefined) return parseDuration(agent.stepTimeout, 'stepTimeout');
  return setting('STACKBONE_STEP_TIMEOUT_MS');
}
