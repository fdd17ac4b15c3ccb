// GET /api/studio/approval-metrics (docs/studio.md, "Approval metrics") counts what Studio's inbox
// and the decision export show its caller: a key's own sessions' approvals and the browsers' calls
// kept for key holders, never another key's; without a key it answers 401. Real runs on a memory
// store with two keys configured, decided as the out-of-band API decides.
import { describe, expect, it } from 'vitest';
import type { ApprovalMetrics } from '../../contract';
import { ALICE_KEY, BOB_KEY, BROWSER, alice, bob, twoKeyDesk } from '../../../tests/support/two-key-desk';
import { handleApprovalMetrics } from './approval-metrics';

const desk = twoKeyDesk();

async function metricsOf(key?: string): Promise<{ status: number; metrics?: ApprovalMetrics }> {
  const response = await handleApprovalMetrics(
    new Request('http://localhost/api/studio/approval-metrics', { headers: key ? { authorization: `Bearer ${key}` } : {} }),
  );
  return { status: response.status, ...(response.ok ? { metrics: (await response.json()) as ApprovalMetrics } : {}) };
}

describe('GET /api/studio/approval-metrics', () => {
  it("counts a key's own sessions' approvals and the browsers' kept for key holders, never another key's; 401 without a key", async () => {
    await desk.ticket(alice, 'T-alice-1', { by: alice, request: { status: 'approved' } });
    await desk.ticket(alice, 'T-alice-2', { by: alice, request: { status: 'approved', editedArgs: { ticketId: 'T-alice-2b' } } });
    await desk.ticket(alice, 'T-alice-3');
    await desk.ticket(bob, 'T-bob', { by: bob, request: { status: 'denied' } });
    await desk.ticket(BROWSER, 'T-browser', { by: bob, request: { status: 'denied' } });
    await desk.ticket(BROWSER, 'T-browser-open');

    const seen = await metricsOf(ALICE_KEY);
    expect(seen.status).toBe(200);
    const [week, month] = seen.metrics!.windows;
    expect(week!.tools).toEqual([{ agent: 'desk', toolName: 'close', counts: { approved: 1, edited: 1, rejected: 1, expired: 0, cancelled: 0 }, total: 3 }]);
    expect(week!.timeToDecide.decisions).toBe(3);
    expect(month!.tools).toEqual(week!.tools);
    expect(seen.metrics!.pending).toBe(2);
    expect(seen.metrics!.slowest.map((open) => [open.sessionId, open.ownSession])).toEqual([
      ['T-alice-3', true],
      ['T-browser-open', false],
    ]);

    const bobs = (await metricsOf(BOB_KEY)).metrics!;
    expect(bobs.windows[0]!.tools[0]!.counts).toEqual({ approved: 0, edited: 0, rejected: 2, expired: 0, cancelled: 0 });
    expect(bobs.slowest.map((open) => open.sessionId)).toEqual(['T-browser-open']);

    expect((await metricsOf()).status).toBe(401);
    expect((await metricsOf('sk-wrong')).status).toBe(401);
  });
});
