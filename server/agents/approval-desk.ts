// A fixture agent for escalation and grants (listed only with STACKBONE_FIXTURE_AGENTS=1;
// docs/approvals.md). Its tools record a side effect in the ledger file, once
// per call (by the idempotency key), as the ledger agent's do; the tests read the ledger to see
// whether a call ran.
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { defineDeepAgent, handlerContext, tool } from '../agent-kit';
import { readLedger } from './ledger';

function effectOnce(key: string): { recorded: string; approvedBy: string } {
  const { event, attempt, idempotencyKey } = handlerContext();
  const file = process.env.STACKBONE_LEDGER_FILE;
  if (!file) throw new Error('STACKBONE_LEDGER_FILE is not set.');
  if (!readLedger(file).some((entry) => entry.kind === 'effect' && entry.idempotencyKey === idempotencyKey))
    appendFileSync(file, JSON.stringify({ kind: 'effect', toolCallId: event.toolCallId, idempotencyKey, attempt, key, at: new Date().toISOString() }) + '\n');
  return { recorded: key, approvedBy: event.approval?.by ?? 'policy' };
}

const KEY = z.string().meta({ title: 'Key', description: 'What to record' });

// Waits 3s for a decision, then escalates to key:ops for 2s more, then is denied.
const escalatingEffect = tool({
  title: 'Record an effect (escalates when nobody decides)',
  description: 'Record a side effect; nobody deciding in 3s escalates the request to key:ops for 2s more.',
  inputSchema: z.object({ key: KEY }),
  execute: async ({ key }) => effectOnce(key),
});

// An approver may approve it "and allow it from now on" in the session, or for a while.
const grantableEffect = tool({
  title: 'Record an effect (may be allowed from now on)',
  description: 'Record a side effect; an approval may allow later calls in this conversation.',
  inputSchema: z.object({ key: KEY }),
  execute: async ({ key }) => effectOnce(key),
});

export default defineDeepAgent({
  name: 'approval-desk',
  displayName: 'Approval desk',
  description: 'Test fixture: approvals that escalate on expiry, and approvals that grant later calls.',
  model: 'scripted/approval-desk',
  instructions: 'Record what you are asked to record.',
  tools: { escalatingEffect, grantableEffect },
  toolApproval: {
    escalatingEffect: {
      policy: 'user-approval',
      ttl: '3s',
      onExpire: 'escalate',
      escalate: { to: ['key:ops'], extendBy: '2s', times: 1, then: 'deny' },
      describe: (input: { key: string }) => `Record ${input.key} (escalates to key:ops)`,
    },
    grantableEffect: {
      policy: 'user-approval',
      grants: ['session', 'time'],
      // Tests tighten who approves it between two servers on one database, as a deploy would (STACKBONE_DESK_APPROVERS=key-holders).
      ...(process.env.STACKBONE_DESK_APPROVERS === 'key-holders' ? { approvers: 'key-holders' as const } : {}),
      describe: (input: { key: string }) => `Record ${input.key}`,
    },
  },
});
