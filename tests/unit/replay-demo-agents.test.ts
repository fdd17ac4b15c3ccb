// Decisions as tests (docs/replay.md, "Decisions as tests"): sessions of the demo agents,
// recorded against a real server with `stackbone export --session`, replayed in this process
// against today's code. A change to an agent's tools, policies or the scripted model's answers
// shows here as a named difference.
import { beforeAll, describe, expect, it } from 'vitest';
import { helpdeskConfig } from '../../tests/fixtures/agents/helpdesk';
import helpdeskNoRefunds from '../fixtures/agents/helpdesk-no-refunds';
import { defineDeepAgent } from '../../server/authoring';
import helpdeskStrict from '../fixtures/agents/helpdesk-strict';
import { expectReplay } from '../support/replay';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

describe('replaying the demo agents’ recorded sessions', () => {
  it('support: a lookup, a refund approved with an edit and a note, a closure rejected — the same today', async () => {
    const report = await expectReplay('helpdesk-refund', { expect: 'identical' });
    // The refund has no dryRun: it answered with the result recorded for the edited call, never the ledger.
    expect(report.replayed.calls.map((call) => call.toolName)).toEqual(['lookupOrder', 'refundPayment', 'closeTicket']);
    expect(report.replayed.answers).toEqual([
      'Order po_42 — Analytical Engine manual for Ada Lovelace, delivered, $19.99.',
      'Refunded $10.00 on order po_42 (refund re_xiB1Or4yZEdv). Note: partial refund',
      "I didn't close ticket: you declined it (“The customer still waits for the refund”).",
    ]);
  });

  it('researcher: a search answered from the notes (its dryRun) — the same today', () => expectReplay('librarian-launch', { expect: 'identical' }));

  it('planner: a question answered, a plan written, research delegated to the researcher — the same today', () =>
    expectReplay('taskboard-question', { expect: 'identical' }));

  it('support against a policy where the lookup needs approval: the lookup newly asks, nobody had decided it, it is denied', () =>
    expectReplay('helpdesk-refund', {
      agent: helpdeskStrict,
      expect: { newlyNeedsApproval: ['lookupOrder'], unrecorded: ['lookupOrder'], unusedDecisions: [], removed: [], added: [] },
    }));

  it('support without its refund tool: the refund call is gone, its approval answers nothing, the answer to that turn changes', () =>
    expectReplay('helpdesk-refund', {
      agent: helpdeskNoRefunds,
      expect: { removed: ['refundPayment'], unusedDecisions: ['refundPayment'], answers: [2], finalAnswer: 'same' },
    }));

  it('support where refunds may no longer be edited: the recorded edited approval is refused, reported, and the refund withdrawn', async () => {
    const noEdits = defineDeepAgent({
      ...helpdeskConfig,
      name: 'support-no-edits',
      toolApproval: { ...helpdeskConfig.toolApproval, refundPayment: { ...helpdeskConfig.toolApproval.refundPayment, allowEdit: false } },
    });
    const report = await expectReplay('helpdesk-refund', { agent: noEdits, expect: { notApplied: ['refundPayment'], unusedDecisions: [], answers: [2] } });
    expect(report.decisions.notApplied[0]!.why).toMatch(/^refused: /);
  });
});
