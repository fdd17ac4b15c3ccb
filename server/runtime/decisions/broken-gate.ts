// A test knob (docs/internals/architecture.md, "Test knobs"): the approval-bypass suite breaks the approval
// gate on purpose, on a server of its own, to show that its checks notice. The gate breaks only
// for an agent a test fixture handed to letTestsBreakGate — this file names none — and only with
// STACKBONE_TEST_BREAK_GATE=1 and STACKBONE_FIXTURE_AGENTS=1: no agent of an app is ever affected.
import { testSetting } from '../../config';
import type { DeepAgent } from '../../authoring';

/** The definitions that opted in, by identity: another agent of the same name is not one of them. */
const breakable = new WeakSet<DeepAgent>();

/** Lets STACKBONE_TEST_BREAK_GATE=1 run these agents' calls without asking; for test fixtures only. */
export function letTestsBreakGate(...agents: DeepAgent[]): void {
  for (const agent of agents) breakable.add(agent);
}

/** Whether the gate runs this agent's calls without asking, broken on purpose. */
export function gateBrokenOnPurpose(agent: DeepAgent): boolean {
  return testSetting('STACKBONE_TEST_BREAK_GATE') && testSetting('STACKBONE_FIXTURE_AGENTS') && breakable.has(agent);
}
