// The desk's inbox under a flood (docs/studio.md, "The inbox"; docs/hitl.md, "Paging the inbox"):
// on the keyed server open to browsers, the desk (an admin who signed in) asks for a refund of its own, then three
// customers ask for 55 between them, all newer. Studio shows the desk's own request on top and
// the customers' under "Kept for key holders", 50 at a time; "Load more" brings the rest, and
// "Whose" narrows the list to the desk's own sessions.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { accountCookie, DESK_EMAIL, KEYED_URL, signInAs, snap } from './helpers';

/** A refund asked on a new thread of the helpdesk agent, read to the end of its run; the thread. */
async function askRefund(headers: Record<string, string>): Promise<string> {
  const threadId = randomUUID();
  const response = await fetch(`${KEYED_URL}/api/agents/helpdesk`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ threadId, runId: randomUUID(), messages: [{ id: randomUUID(), role: 'user', content: 'refund order po_42 for 19.99' }] }),
  });
  expect(response.status).toBe(200);
  expect(await response.text()).toContain('"type":"interrupt"');
  return threadId;
}

/** Every pending decision the desk may make, by the API. */
async function pendingIds(desk: Record<string, string>): Promise<string[]> {
  const { interrupts } = (await (await fetch(`${KEYED_URL}/api/hitl?limit=200`, { headers: desk })).json()) as { interrupts: { id: string }[] };
  return interrupts.map((item) => item.id);
}

test("the desk's own request stays on top of 55 customers' newer ones; Load more shows the rest", async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const deskHeaders = { cookie: await accountCookie(DESK_EMAIL), origin: KEYED_URL };
  const own = await askRefund(deskHeaders);
  const customers = await Promise.all(
    [1, 2, 3].map(async () => ({ cookie: ((await fetch(`${KEYED_URL}/`)).headers.get('set-cookie') ?? '').split(';')[0]!, origin: KEYED_URL })),
  );
  const asks = Array.from({ length: 55 }, (_, i) => customers[i % customers.length]!);
  for (let i = 0; i < asks.length; i += 5) await Promise.all(asks.slice(i, i + 5).map(askRefund));
  const pending = await pendingIds(deskHeaders);
  expect(pending.length).toBeGreaterThanOrEqual(56);
  expect(pending.length).toBeLessThanOrEqual(100);

  const context = await browser.newContext();
  const desk = await context.newPage();
  const errors: string[] = [];
  desk.on('pageerror', (error) => errors.push(error.message));
  await signInAs(desk, DESK_EMAIL);

  const items = desk.getByTestId('inbox-item');
  await expect(items).toHaveCount(50);
  await expect(items.first()).toHaveAttribute('data-session-id', own);
  await expect(items.first().getByTestId('inbox-chat-link')).toBeVisible();
  await expect(desk.getByTestId('inbox-kept-heading')).toHaveText('Kept for key holders');
  await expect(desk.getByTestId('inbox-count')).toHaveText('50+');
  await snap(desk, testInfo, '95-desk-inbox-first-page');

  await desk.getByTestId('inbox-load-more').click();
  await expect(items).toHaveCount(pending.length);
  await expect(desk.getByTestId('inbox-load-more')).toHaveCount(0);
  await expect(desk.getByTestId('inbox-count')).toHaveText(String(pending.length));
  const shown = await items.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-interrupt-id')));
  expect(shown.toSorted()).toEqual(pending.toSorted());

  await desk.getByTestId('inbox-whose-filter').selectOption('mine');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute('data-session-id', own);
  await expect(desk.getByTestId('inbox-kept-heading')).toHaveCount(0);
  await snap(desk, testInfo, '96-desk-inbox-mine');
  expect(errors).toEqual([]);
  await context.close();

  // The requests are withdrawn, so the specs after this one find the desk's inbox as it was.
  for (const id of pending) {
    const response = await fetch(`${KEYED_URL}/api/hitl/${id}/cancel`, {
      method: 'POST',
      headers: { ...deskHeaders, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(200);
  }
});
