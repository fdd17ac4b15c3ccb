// How long a tool call may take, and how long a cut-off call gets to wind down
// (docs/hitl.md, Timeouts). Without a limit one hung tool holds its session's run forever.
import type { DeepAgent } from '../../authoring';
import { parseDuration } from '../../authoring/duration';
import { setting } from '../../config';

/**
 * The timeout of one call: the tool's own (toolTimeouts), else the agent's (toolTimeout), else
 * STACKBONE_TOOL_TIMEOUT_MS, else 2 minutes. Built-in tools (planning, delegation) are not in
 * agent.tools and so take the agent's default.
 */
export function toolTimeoutMs(agent: DeepAgent, toolName: string): number {
  const own = Object.hasOwn(agent.tools, toolName) ? agent.toolTimeouts[toolName] : undefined;
  const configured = own ?? agent.toolTimeout;
  if (configured !== undefined) return parseDuration(configured, 'toolTimeout');
  return setting('STACKBONE_TOOL_TIMEOUT_MS');
}

/** How long a timed-out or stopped call may still take to settle before it is abandoned. */
export function stopGraceMs(): number {
  return setting('STACKBONE_STOP_GRACE_MS');
}
