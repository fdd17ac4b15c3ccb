// GET /api/hitl/decisions (docs/replay.md, "Exporting decisions") sees what the inbox sees: a
// key's own sessions' decisions, and the browsers' calls kept for key holders; never another
// key's. The route runs on a memory store with two keys configured.
import { describe, expect, it } from 'vitest';
import { ALICE_KEY, BOB_KEY, BROWSER, alice, bob, twoKeyDesk } from '../../../tests/support/two-key-desk';
import { exportDecisions } from './decisions';

const desk = twoKeyDesk();

const exported = async (key?: string) => {
  const response = await exportDecisions(new Request('http://localhost/api/hitl/decisions', { headers: key ? { authorization: `Bearer ${key}` } : {} }));
  const text = await response.text();
  return {
    status: response.status,
    tickets: response.ok
      ? text
          .split('\n')
          .filter(Boolean)
          .map((line) => (JSON.parse(line) as { argsAsked: { ticketId: string } }).argsAsked.ticketId)
      : text,
  };
};

describe('GET /api/hitl/decisions', () => {
  it("answers a key its own sessions' decisions and the browsers' calls kept for key holders, never another key's", async () => {
    await desk.ticket(alice, 'T-alice', { by: alice, request: { status: 'approved' } });
    await desk.ticket(bob, 'T-bob', { by: bob, request: { status: 'approved' } });
    await desk.ticket(BROWSER, 'T-browser', { by: alice, request: { status: 'approved' } });

    expect(await exported(ALICE_KEY)).toEqual({ status: 200, tickets: ['T-alice', 'T-browser'] });
    expect(await exported(BOB_KEY)).toEqual({ status: 200, tickets: ['T-bob', 'T-browser'] });
    expect((await exported()).status).toBe(401);
    expect((await exported('sk-wrong')).status).toBe(401);
  });
});
