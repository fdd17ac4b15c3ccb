// A fixture agent for the quorum tests (listed only with STACKBONE_FIXTURE_AGENTS=1; docs/approvals.md,
// "Quorum and separation of duties"): its payout needs two distinct finance keys, and the key
// that asked for it is not one of them. The payout writes a ledger line each time it runs and
// records its effect once per call, so a test sees that racing approvals ran it exactly once.
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { defineDeepAgent, handlerContext, tool } from '../agent-kit';
import { effectOnce, ledgerFile } from './ledger';

const payOut = tool({
  title: 'Pay out',
  description: 'Pay an amount out (recorded in the ledger, once per call).',
  inputSchema: z.object({ key: z.string().meta({ title: 'Payout reference' }), amount: z.number().meta({ title: 'Amount' }) }),
  execute: async ({ key }) => {
    const { event, attempt, idempotencyKey } = handlerContext();
    // Every execution, not only the first: running twice must show.
    appendFileSync(
      ledgerFile(),
      JSON.stringify({ kind: 'attempt', toolCallId: event.toolCallId, idempotencyKey, attempt, key, at: new Date().toISOString() }) + '\n',
    );
    return { paid: key, new: effectOnce(key) };
  },
});

export default defineDeepAgent({
  name: 'quorum-desk',
  displayName: 'Quorum desk',
  description: 'Test fixture: a payout two finance approvers must approve, never the requester.',
  model: 'scripted/quorum-desk',
  instructions: 'Pay out what you are asked to.',
  tools: { payOut },
  toolApproval: {
    payOut: {
      policy: 'user-approval',
      approvers: ['key:finance'],
      quorum: 2,
      requesterMayApprove: false,
      describe: (input: { key: string; amount: number }) => `Pay out ${input.amount} (${input.key})`,
    },
  },
});
