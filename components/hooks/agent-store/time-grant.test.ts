// What the approval card offers of a 'time' grant (docs/approvals.md, "Scoped grants"): its one
// hour, only where the tool lets a grant last that long — the server refuses a longer one.
import type { Interrupt } from '@ag-ui/client';
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent, type ToolApprovalOptions } from '../../../server/authoring';
import { buildInterrupt } from '../../../server/runtime/decisions/interrupt-record';
import { grantScopes, timeGrantFits } from './interrupt-resolution';

/** The interrupt a call of a tool so configured opens, as the chat receives it. */
function pausedCall(approval: Partial<ToolApprovalOptions>): Interrupt {
  const agent = defineDeepAgent({
    name: 'desk',
    model: 'openai/gpt-4o-mini',
    instructions: 'x',
    tools: { lookup: tool({ inputSchema: z.object({ id: z.string() }), execute: async () => ({}) }) },
    toolApproval: { lookup: { policy: 'user-approval', ...approval } },
  });
  const record = buildInterrupt(agent, { id: 'c1', name: 'lookup', input: { id: 'x' } }, 'r1');
  return { id: record.id, reason: record.reason, message: record.message, toolCallId: record.toolCallId, responseSchema: record.responseSchema } as Interrupt;
}

const HOUR = 3_600_000;

describe("the card's one-hour grant", () => {
  it('fits the default bound (30 days) and a bound of an hour or more', () => {
    expect(timeGrantFits(pausedCall({ grants: true }), HOUR)).toBe(true);
    expect(timeGrantFits(pausedCall({ grants: ['time'], maxGrantTime: '1h' }), HOUR)).toBe(true);
    expect(timeGrantFits(pausedCall({ grants: ['time'] }), 31 * 24 * HOUR)).toBe(false);
  });

  it('does not fit a tool whose grants last less, nor one that allows no time grant', () => {
    expect(timeGrantFits(pausedCall({ grants: ['session', 'time'], maxGrantTime: '30m' }), HOUR)).toBe(false);
    expect(grantScopes(pausedCall({ grants: ['session', 'time'], maxGrantTime: '30m' }))).toEqual(['session', 'time']);
    expect(timeGrantFits(pausedCall({ grants: ['session'] }), HOUR)).toBe(false);
    expect(timeGrantFits(pausedCall({}), HOUR)).toBe(false);
  });
});
