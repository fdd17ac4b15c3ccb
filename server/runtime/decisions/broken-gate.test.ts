// The test knob that breaks the approval gate (docs/internals/architecture.md, "Test knobs") breaks it for
// the definitions a fixture opted in only, and only with both variables set: an app's agent, even
// one of the same name, is never affected.
import { afterEach, describe, expect, it } from 'vitest';
import { defineDeepAgent } from '../../authoring';
import { gateBrokenOnPurpose, letTestsBreakGate } from './broken-gate';

const agent = (name: string) => defineDeepAgent({ name, model: 'scripted/x', instructions: 'x' });

afterEach(() => {
  delete process.env.STACKBONE_TEST_BREAK_GATE;
  delete process.env.STACKBONE_FIXTURE_AGENTS;
});

describe('the gate broken on purpose', () => {
  it('holds for an opted-in definition only, with STACKBONE_TEST_BREAK_GATE=1 and STACKBONE_FIXTURE_AGENTS=1', () => {
    const fixture = agent('desk');
    const sameName = agent('desk');
    delete process.env.STACKBONE_FIXTURE_AGENTS; // the unit projects list the fixtures (vitest.config.ts)
    letTestsBreakGate(fixture);
    expect(gateBrokenOnPurpose(fixture)).toBe(false);
    process.env.STACKBONE_TEST_BREAK_GATE = '1';
    expect(gateBrokenOnPurpose(fixture)).toBe(false);
    process.env.STACKBONE_FIXTURE_AGENTS = '1';
    expect(gateBrokenOnPurpose(fixture)).toBe(true);
    expect(gateBrokenOnPurpose(sameName)).toBe(false);
  });
});
