// The line an approval card shows for a paused call (docs/hitl.md, "The interrupt"): what the
// policy's describe() says, else a line generated from the call; a describe() that throws still
// pauses the call, without a description.
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent, type ToolApprovalSpec } from '../../authoring';
import { buildInterrupt } from './interrupt-record';

function pausedOn(spec: ToolApprovalSpec) {
  const agent = defineDeepAgent({
    name: 'desk',
    model: 'openai/gpt-4o-mini',
    tools: { closeTicket: tool({ inputSchema: z.object({ ticketId: z.string() }), execute: async () => ({ closed: true }) }) },
    toolApproval: { closeTicket: spec },
  });
  return buildInterrupt(agent, { id: 'call_1', name: 'closeTicket', input: { ticketId: 'T-7' } }, 'run-1');
}

describe('the interrupt of a paused call', () => {
  it("says what the policy's describe() says about the call", () => {
    const interrupt = pausedOn({ policy: 'user-approval', describe: (input: { ticketId: string }) => `Close ticket ${input.ticketId}` });
    expect(interrupt).toMatchObject({ message: 'Close ticket T-7', description: 'Close ticket T-7' });
  });

  it('without a describe(), has no description and its message is what the tool is called, never its raw arguments', () => {
    const interrupt = pausedOn('user-approval');
    expect(interrupt.message).toBe('Close ticket');
    expect(interrupt).not.toHaveProperty('description');
  });

  it('pauses all the same when describe() throws', () => {
    const interrupt = pausedOn({
      policy: 'user-approval',
      describe: () => {
        throw new Error('no words today');
      },
    });
    expect(interrupt).toMatchObject({ reason: 'tool_call', toolName: 'closeTicket', message: 'Close ticket' });
    expect(interrupt).not.toHaveProperty('description');
  });
});
