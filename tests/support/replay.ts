// expectReplay (docs/replay.md, "Decisions as tests"): a recorded session replayed in this
// process against agent code — the recording's agent from the registry, or the one given — on a
// scratch memory store, with no server, and its diff checked. A recording is a file of
// tests/recordings/ that `stackbone export --session <key>` wrote.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { findAgent } from '../../server/agents';
import type { DeepAgent } from '../../server/authoring';
import { parseRecordingFile, replay, type ReplayReport } from '../../server/runtime';

const RECORDINGS = path.resolve(import.meta.dirname, '../recordings');

/** What a replay should find; each list names the tools, in order. Unnamed parts are not checked. */
interface ReplayExpectation {
  added?: string[];
  removed?: string[];
  changed?: string[];
  newlyNeedsApproval?: string[];
  noLongerNeedsApproval?: string[];
  /** Recorded decisions no replayed call took. */
  unusedDecisions?: string[];
  /** Interrupts of the replay no recorded decision answered (denied, or a question withdrawn). */
  unrecorded?: string[];
  /** Recorded decisions that matched a call but that the agent no longer accepts (withdrawn). */
  notApplied?: string[];
  /** The turns before the last (1-based) whose answer changed. */
  answers?: number[];
  finalAnswer?: 'same' | 'changed' | RegExp;
}

const names = (list: { toolName: string }[]) => list.map((entry) => entry.toolName);

/**
 * Replays `recording` (a file name in tests/recordings/, with or without .jsonl, or a path) and
 * checks the diff: `'identical'`, or the parts an expectation names. Answers the report.
 */
export async function expectReplay(recording: string, options: { agent?: DeepAgent; expect: 'identical' | ReplayExpectation }): Promise<ReplayReport> {
  const file = path.isAbsolute(recording) ? recording : path.join(RECORDINGS, recording.endsWith('.jsonl') ? recording : `${recording}.jsonl`);
  const { agent: recordedAgent, events } = parseRecordingFile(readFileSync(file, 'utf8'));
  const agent = options.agent ?? findAgent(recordedAgent);
  if (!agent) throw new Error(`The recording's agent "${recordedAgent}" is not registered: pass { agent }.`);
  const report = await replay(events, agent);
  const shown = `replay of ${path.basename(file)} against ${agent.name}: ${JSON.stringify(report, null, 2)}`;
  expect(report.deterministic, `${shown}\nA replay is a test only on the scripted model (STACKBONE_MODEL=scripted).`).toBe(true);
  if (options.expect === 'identical') {
    expect(report.identical, shown).toBe(true);
    return report;
  }
  const wanted = options.expect;
  const checks: [keyof ReplayExpectation, string[]][] = [
    ['added', names(report.calls.added)],
    ['removed', names(report.calls.removed)],
    ['changed', names(report.calls.changed)],
    ['newlyNeedsApproval', names(report.approvals.newlyNeeded)],
    ['noLongerNeedsApproval', names(report.approvals.noLongerNeeded)],
    ['unusedDecisions', names(report.decisions.unused)],
    ['unrecorded', names(report.decisions.unrecorded)],
    ['notApplied', names(report.decisions.notApplied)],
  ];
  for (const [part, found] of checks) if (wanted[part] !== undefined) expect(found, `${part} — ${shown}`).toEqual(wanted[part]);
  if (wanted.answers !== undefined)
    expect(
      report.answers.map((answer) => answer.turn),
      `answers — ${shown}`,
    ).toEqual(wanted.answers);
  const answer = wanted.finalAnswer;
  if (answer === 'same') expect(report.finalAnswer, shown).toBeNull();
  else if (answer === 'changed') expect(report.finalAnswer, shown).not.toBeNull();
  else if (answer instanceof RegExp) expect(report.replayed.finalAnswer, shown).toMatch(answer);
  expect(report.identical, shown).toBe(false);
  return report;
}
