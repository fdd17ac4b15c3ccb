// What an MCP client's human is asked for a pause, and what their answer decides
// (docs/mcp.md, "A gated tool asks the MCP client's human").
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import planner from '../../../tests/fixtures/agents/taskboard';
import type { JsonObject } from '../../store/messages';
import support from '../../../tests/fixtures/agents/helpdesk';
import { buildInputInterrupt, buildInterrupt } from '../../runtime/decisions';
import { decisionFromElicitation, elicitationFor } from './elicitation';

const refund = buildInterrupt(support, { id: 'call_1', name: 'refundPayment', input: { orderId: 'po_42', amount: 19.99 } }, 'run_1');
const close = buildInterrupt(support, { id: 'call_2', name: 'closeTicket', input: { ticketId: 'T-7' } }, 'run_1');
const question = (schema: z.ZodType) =>
  buildInputInterrupt(planner, { id: 'call_3', name: 'ask_user', input: { question: 'Which day?' } }, 'run_1', {
    message: 'Which day?',
    responseSchema: z.toJSONSchema(schema) as JsonObject,
  });

describe('MCP elicitation of a pause', () => {
  it('asks an approval as a choice, the editable arguments prefilled, the approval data and a reason; a tool without edits shows no arguments', () => {
    const form = elicitationFor(refund)!;
    expect(form.message).toBe('helpdesk asks for your approval: Refund $19.99 on order po_42');
    expect(Object.keys(form.requestedSchema.properties)).toEqual(['decision', 'orderId', 'amount', 'note', 'reason']);
    expect(form.requestedSchema.properties.amount).toMatchObject({ type: 'number', title: 'Refund amount', default: 19.99 });
    expect(form.requestedSchema.required).toEqual(['decision']);
    expect(Object.keys(elicitationFor(close)!.requestedSchema.properties)).toEqual(['decision', 'reason']);
  });

  it('an approval with the arguments as proposed is no edit; a changed one is; reject and decline deny; cancel cancels, as on every surface', () => {
    expect(decisionFromElicitation(refund, { action: 'accept', content: { decision: 'approve', orderId: 'po_42', amount: 19.99 } })).toEqual({
      status: 'approved',
    });
    expect(decisionFromElicitation(refund, { action: 'accept', content: { decision: 'approve', amount: 10, note: 'partial' } })).toEqual({
      status: 'approved',
      editedArgs: { orderId: 'po_42', amount: 10 },
      payload: { note: 'partial' },
    });
    expect(decisionFromElicitation(refund, { action: 'accept', content: { decision: 'reject', amount: 10, reason: ' not yet ' } })).toEqual({
      status: 'denied',
      reason: 'not yet',
    });
    expect(decisionFromElicitation(close, { action: 'decline' })).toEqual({ status: 'denied' });
    expect(decisionFromElicitation(close, { action: 'cancel' })).toEqual({ status: 'cancelled' });
  });

  it('asks a flat question with its own schema, the answer being the payload; a nested one is left to Studio', () => {
    const flat = question(z.object({ day: z.enum(['Monday', 'Tuesday']), note: z.string().optional() }));
    expect(elicitationFor(flat)).toEqual({
      mode: 'form',
      message: 'Which day?',
      requestedSchema: { type: 'object', properties: { day: { type: 'string', enum: ['Monday', 'Tuesday'] }, note: { type: 'string' } }, required: ['day'] },
    });
    expect(decisionFromElicitation(flat, { action: 'accept', content: { day: 'Monday' } })).toEqual({ status: 'approved', payload: { day: 'Monday' } });
    expect(decisionFromElicitation(flat, { action: 'decline' })).toEqual({ status: 'denied' });
    expect(elicitationFor(question(z.object({ days: z.array(z.string()) })))).toBeUndefined();
  });
});
