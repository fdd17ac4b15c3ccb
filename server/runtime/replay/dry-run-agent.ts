// The agent as a replay runs it (docs/replay.md, "Dry runs"): the same definition — model,
// instructions, approval policies, schemas — with every tool's execute taken out. A tool with a
// `dryRun` answers with it; one without is not run: the replay answers with the recorded result
// of the same call (tool and deep-equal arguments) if there is one, else says it did not run.
// MCP servers are left out: a replay reaches nothing outside the process.
import { isDeepStrictEqual } from 'node:util';
import type { Tool, ToolSet } from 'ai';
import type { DeepAgent } from '../../authoring';
import { ToolError } from '../tools';
import type { RecordedCall } from './recording';

/** The result a tool without a dry run and without a recorded result gives in a replay. */
function notRunResult(toolName: string) {
  return { notRun: true, summary: `${toolName} was not run in replay (no dryRun).` };
}

/** Recorded results by call (the arguments it ran with: edited ones, if edited), each used once, in the order the calls were made. */
function recordedResults(calls: readonly RecordedCall[]) {
  const left = calls.filter((call) => call.result && !call.result.status);
  return (toolName: string, input: unknown) => {
    const index = left.findIndex((call) => call.toolName === toolName && isDeepStrictEqual(call.ranInput ?? call.input, input));
    return index < 0 ? undefined : left.splice(index, 1)[0]!.result;
  };
}

export function dryRunAgent(agent: DeepAgent, recorded: readonly RecordedCall[]): DeepAgent {
  return withDryRuns(agent, recordedResults(recorded));
}

function withDryRuns(agent: DeepAgent, recordedResult: ReturnType<typeof recordedResults>): DeepAgent {
  const tools: ToolSet = {};
  for (const [name, definition] of Object.entries(agent.tools)) {
    const dryRun = agent.dryRun[name];
    const execute = async (input: unknown) => {
      if (dryRun) return await dryRun(input);
      const result = recordedResult(name, input);
      if (!result) return notRunResult(name);
      if (result.isError) throw new ToolError(result.content);
      return result.output;
    };
    tools[name] = { ...(definition as Tool), execute } as Tool;
  }
  return { ...agent, tools, mcpServers: [], subagents: agent.subagents.map((subagent) => withDryRuns(subagent, recordedResult)) };
}
