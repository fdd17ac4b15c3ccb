// A recording replayed and compared, in one call: what the server's replay endpoint, the CLI
// (through it) and tests' expectReplay answer with (docs/replay.md).
import type { DeepAgent } from '../../authoring';
import type { StoredEvent } from '../../store/events';
import { isScriptedMode } from '../../models/resolve';
import { diffReplay, type ReplayDiff } from './diff';
import { readRecording } from './recording';
import { runReplay } from './run-replay';

export interface ReplayReport extends ReplayDiff {
  /** The agent whose code the replay ran. */
  agent: string;
  /** True on the scripted model: the same code replays the same way. A real model may answer differently each time. */
  deterministic: boolean;
  turns: number;
  /** The replay's calls and answer, for a reader who wants more than the diff. */
  replayed: { calls: { toolName: string; input: unknown; askedApproval: boolean }[]; answers: string[]; finalAnswer: string };
}

export async function replay(events: readonly StoredEvent[], agent: DeepAgent): Promise<ReplayReport> {
  const recorded = readRecording(events);
  const run = await runReplay(recorded, agent);
  const replayed = readRecording(run.events);
  return {
    agent: agent.name,
    deterministic: isScriptedMode(agent.model),
    turns: recorded.turns.length,
    ...diffReplay(recorded, replayed, run),
    replayed: {
      calls: replayed.calls.map(({ toolName, input, askedApproval }) => ({ toolName, input, askedApproval })),
      answers: replayed.answers,
      finalAnswer: replayed.finalAnswer,
    },
  };
}
