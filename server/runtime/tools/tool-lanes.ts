// Which calls of a model step may run at the same time (docs/turn-control.md, "Concurrent
// tools"). Independent calls run concurrently; calls that share a lane run one after another,
// in the order the model made them — for tools that must not overlap (a ledger, a rate-limited
// API). A lane is the tool's own (toolLanes), else the agent's (toolLane), else none.
import type { DeepAgent } from '../../authoring';

export function toolLaneOf(agent: DeepAgent, toolName: string): string | undefined {
  return (Object.hasOwn(agent.toolLanes, toolName) ? agent.toolLanes[toolName] : undefined) ?? agent.toolLane;
}

/**
 * Runs `work` for each item: items without a lane all at once, items of a lane one at a time
 * in order, lanes side by side. Resolves with the results in the items' order.
 */
export async function runInLanes<T, R>(items: T[], laneOf: (item: T) => string | undefined, work: (item: T) => Promise<R>): Promise<R[]> {
  const tails = new Map<string, Promise<unknown>>();
  return Promise.all(
    items.map((item) => {
      const lane = laneOf(item);
      if (lane === undefined) return work(item);
      const previous = tails.get(lane) ?? Promise.resolve();
      // The next call of the lane starts when this one has settled, whichever way.
      const run = previous.then(() => work(item));
      tails.set(
        lane,
        run.catch(() => undefined),
      );
      return run;
    }),
  );
}
