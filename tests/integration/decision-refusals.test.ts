// One decision pipeline: the same refused decision gives the same code over AG-UI (a resume)
// and over HTTP (/api/hitl, what the CLI and Studio use), and writes nothing on either path
// (docs/internals/architecture.md, "The decision pipeline").
import { randomUUID } from 'node:crypto';
import type { BaseEvent, RunFinishedEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { postRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { countRows, eventually } from '../support/inspect';

/** A decision as a person makes it; each path sends it in its own shape. */
interface Decision {
  approved: boolean;
  editedArgs?: unknown;
  payload?: unknown;
}

interface Case {
  name: string;
  agent: string;
  text: string;
  /** What happened to the interrupt before the refused decision. */
  before?: (url: string, paused: { interruptId: string; threadId: string }) => Promise<unknown>;
  decision: Decision;
  code: string;
}

const cases: Case[] = [
  {
    name: 'a second decision, different from the first',
    agent: 'helpdesk',
    text: 'close ticket T-7',
    before: (url, { interruptId }) =>
      fetch(`${url}/api/hitl/${interruptId}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    decision: { approved: false },
    code: 'interrupt_already_decided',
  },
  {
    name: 'a decision after the interrupt expired',
    agent: 'ledger',
    text: 'call expiringEffect {"key":"too-late"}',
    // Past the expiry, and until the sweep has applied its default action: rows counted before it would be written after.
    before: async (url, { threadId }) => {
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      await eventually(async () => (await readThread(url, 'ledger', threadId)).body.interrupts === null, 15_000, 'the sweep to apply the expiry');
    },
    decision: { approved: true },
    code: 'interrupt_expired',
  },
  {
    name: 'a decision after the expiry took its default action and the thread moved on',
    agent: 'ledger',
    text: 'call expiringEffect {"key":"moved-on"}',
    before: async (url, { threadId }) => {
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      // The next message records the expiry's denial and goes on.
      await postRun(url, 'ledger', { threadId, runId: randomUUID(), messages: [userMessage('reply with 2 tokens')] });
    },
    decision: { approved: true },
    code: 'interrupt_expired',
  },
  {
    name: 'approval data that fails approvalSchema',
    agent: 'helpdesk',
    text: 'refund order po_42 for 19.99',
    decision: { approved: true, payload: { note: 'x'.repeat(600) } },
    code: 'payload_invalid',
  },
  {
    name: "edited arguments that fail the tool's input schema",
    agent: 'helpdesk',
    text: 'refund order po_42 for 19.99',
    decision: { approved: true, editedArgs: { orderId: 'po_42', amount: -1 } },
    code: 'edited_args_invalid',
  },
  {
    name: 'edits on a tool that allows none',
    agent: 'helpdesk',
    text: 'close ticket T-7',
    decision: { approved: true, editedArgs: { ticketId: 'T-8' } },
    code: 'edit_not_allowed',
  },
  {
    name: 'a rejection carrying edits',
    agent: 'helpdesk',
    text: 'refund order po_42 for 19.99',
    decision: { approved: false, editedArgs: { orderId: 'po_42', amount: 1 } },
    code: 'resume_invalid',
  },
];

async function refusedOverAgUi(url: string, agent: string, thread: { threadId: string; runId: string }, interruptId: string, decision: Decision) {
  const { approved, ...rest } = decision;
  const { events } = await postRun(url, agent, {
    threadId: thread.threadId,
    runId: randomUUID(),
    parentRunId: thread.runId,
    messages: [],
    resume: [{ interruptId, status: 'resolved', payload: { approved, ...rest } }],
  });
  const last = events.at(-1) as BaseEvent & { code?: string };
  expect(last.type, JSON.stringify(events)).toBe('RUN_ERROR');
  return last.code;
}

async function refusedOverHttp(url: string, interruptId: string, decision: Decision) {
  const { approved, ...body } = decision;
  const response = await fetch(`${url}/api/hitl/${interruptId}/${approved ? 'approve' : 'reject'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBeGreaterThanOrEqual(400);
  return ((await response.json()) as { error: { code: string } }).error.code;
}

for (const server of backends()) {
  describe(`a refused decision on ${server.kind}`, () => {
    for (const example of cases) {
      it(`${example.name}: ${example.code} over AG-UI and over HTTP, nothing written`, async () => {
        const thread = { threadId: randomUUID(), runId: randomUUID() };
        const { events } = await postRun(server.url, example.agent, { ...thread, messages: [userMessage(example.text)] });
        const outcome = (events.at(-1) as RunFinishedEvent).outcome;
        if (outcome?.type !== 'interrupt') throw new Error(`expected a pause, got ${JSON.stringify(events.at(-1))}`);
        const interruptId = outcome.interrupts[0]!.id;
        await example.before?.(server.url, { interruptId, threadId: thread.threadId });
        // A decision made before may still be carrying its continuation: count once it is done.
        await eventually(async () => (await readThread(server.url, example.agent, thread.threadId)).body.status !== 'running', 15_000, 'the thread to settle');
        const rows = await countRows(server.databaseUrl, thread.threadId);

        expect(await refusedOverAgUi(server.url, example.agent, thread, interruptId, example.decision)).toBe(example.code);
        expect(await refusedOverHttp(server.url, interruptId, example.decision)).toBe(example.code);
        expect(await countRows(server.databaseUrl, thread.threadId)).toEqual(rows);
      });
    }
  });
}
