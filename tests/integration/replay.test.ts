// Decisions as tests, end to end against the shared servers (docs/replay.md): a helpdesk session
// with a refund approved (and edited) over /api/hitl is exported as decisions and as a recording,
// then replayed through the real CLI — against its own agent (identical, exit 0), against a
// variant where looking an order up needs approval, and one without the refund tool (exit 1,
// each difference named).
import { randomUUID } from 'node:crypto';
import type { RunFinishedEvent } from '@ag-ui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRecordingFile } from '../../server/runtime';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { stackbone } from '../support/cli';
import { eventually, readSessionEvents } from '../support/inspect';

for (const server of backends()) {
  describe(`replay on ${server.kind}`, () => {
    const threadId = randomUUID();

    beforeAll(async () => {
      await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('Look up order po_42')] });
      const { events } = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('Refund order po_42 for 19.99')] });
      const outcome = (events.at(-1) as RunFinishedEvent).outcome as { type: string; interrupts: { id: string }[] };
      expect(outcome.type).toBe('interrupt');
      const response = await fetch(`${server.url}/api/hitl/${outcome.interrupts[0]!.id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ editedArgs: { orderId: 'po_42', amount: 10 } }),
      });
      expect(response.status).toBe(200);
      await eventually(
        async () => (await readSessionEvents(server.databaseUrl, threadId)).filter((event) => event.type === 'run_finished').length === 3,
        10_000,
        'the refund to run',
      );
    });

    it('exports the decision, as asked and as run, and the session as a recording', async () => {
      const exported = await stackbone(server.url, 'export', '--decisions', '--json');
      expect(exported.code).toBe(0);
      const decisions = (JSON.parse(exported.stdout) as { decisions: { session: string }[] }).decisions.filter((line) => line.session === threadId);
      expect(decisions).toEqual([
        expect.objectContaining({
          agent: 'helpdesk',
          toolName: 'refundPayment',
          argsAsked: { orderId: 'po_42', amount: 19.99 },
          argsRun: { orderId: 'po_42', amount: 10 },
          status: 'approved',
          reason: null,
          by: expect.objectContaining({ source: expect.any(String), credential: 'local' }),
          votes: [],
          latencyMs: expect.any(Number),
        }),
      ]);
      const lines = await stackbone(server.url, 'export', '--decisions');
      expect(lines.stdout.split('\n').filter((line) => line.includes(threadId))).toHaveLength(1);

      const recording = await stackbone(server.url, 'export', '--session', threadId);
      expect(recording.code).toBe(0);
      const file = parseRecordingFile(recording.stdout);
      expect(file).toMatchObject({ agent: 'helpdesk', session: threadId });
      expect(file.events.map((stored) => stored.event.type)).toContain('interrupt_decided');
    });

    it('replays the session against its own agent: identical, exit 0', async () => {
      const same = await stackbone(server.url, 'replay', threadId);
      expect(same.stdout).toContain('Identical: the same calls, approvals, decisions and final answer.');
      expect(same.code).toBe(0);
    });

    it('against a stricter policy: the lookup newly needs approval and nobody had decided it, exit 1', async () => {
      const text = await stackbone(server.url, 'replay', threadId, '--against', 'helpdesk-strict');
      expect(text.code).toBe(1);
      expect(text.stdout).toContain('newly needs approval    lookupOrder {"orderId":"po_42"}');
      expect(text.stdout).toContain('no recorded decision    lookupOrder {"orderId":"po_42"}: denied in the replay');

      const json = await stackbone(server.url, 'replay', threadId, '--against', 'helpdesk-strict', '--json');
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({
        identical: false,
        deterministic: true,
        agent: 'helpdesk-strict',
        recordedAgent: 'helpdesk',
        approvals: { newlyNeeded: [{ toolName: 'lookupOrder', input: { orderId: 'po_42' } }], noLongerNeeded: [] },
        calls: { added: [], removed: [], changed: [] },
      });
    });

    it('against the agent without its refund tool: the refund call is gone and its decision unused, exit 1', async () => {
      const json = await stackbone(server.url, 'replay', threadId, '--against', 'helpdesk-no-refunds', '--json');
      expect(json.code).toBe(1);
      const report = JSON.parse(json.stdout);
      expect(report.calls.removed).toEqual([{ toolName: 'refundPayment', input: { orderId: 'po_42', amount: 19.99 } }]);
      expect(report.decisions.unused).toEqual([{ toolName: 'refundPayment', input: { orderId: 'po_42', amount: 19.99 }, status: 'approved' }]);
      expect(report.finalAnswer).not.toBeNull();

      const text = await stackbone(server.url, 'replay', threadId, '--against', 'helpdesk-no-refunds');
      expect(text.stdout).toContain('- call removed          refundPayment');
      expect(text.stdout).toContain('decision unused         refundPayment {"orderId":"po_42","amount":19.99} was approved');
    });

    it('refuses an unknown agent or session (exit 1) and a missing session (exit 2)', async () => {
      expect(await stackbone(server.url, 'replay', threadId, '--against', 'no-such-agent')).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('not_found'),
      });
      expect(await stackbone(server.url, 'replay', randomUUID())).toMatchObject({ code: 1, stderr: expect.stringContaining('not_found') });
      expect((await stackbone(server.url, 'replay')).code).toBe(2);
    });
  });
}
