// Off the main road, item 5: a card has what an approver needs (docs/hitl.md, "Approval context").
// The refund's tool looks up the order when the request opens: the chat's card, Studio's inbox and
// the emailed approval page show its customer, item and total, and warn when the refund is more
// than the order cost; the emailed page keeps the raw call behind Details and its times local.
import { expect, test } from '@playwright/test';
import { mailedLink, pageOn, SCREENS, send, snap } from './helpers';

for (const screen of SCREENS) {
  test(`the refund's card, Studio and the emailed page show the order's customer, item and total (${screen.width} px, ${screen.colorScheme})`, async ({
    browser,
  }, testInfo) => {
    const { context, page, problems } = await pageOn(browser, screen, '/agents/helpdesk');
    await send(page, 'refund order po_42 for 19.99');
    const card = page.getByTestId('approval-card');
    await expect(card.getByTestId('approval-message')).toHaveText('Refund $19.99 on order po_42');
    await expect(card.getByTestId('approval-context-fact')).toHaveText(['Ada Lovelace', 'Analytical Engine manual', '$19.99']);
    await expect(card.getByTestId('approval-context')).toContainText('Customer');
    await expect(card.getByTestId('approval-risk')).toHaveCount(0);
    await snap(page, testInfo, `c1-refund-with-its-order-${screen.width}`);
    const threadId = page.url().split('/').at(-1)!;

    // Studio's inbox shows the same card, with the same facts.
    const studio = await context.newPage();
    await studio.goto('/studio');
    const entry = studio.locator(`[data-testid="inbox-item"][data-session-id="${threadId}"]`);
    await expect(entry.getByTestId('approval-context-fact')).toHaveText(['Ada Lovelace', 'Analytical Engine manual', '$19.99']);
    await snap(studio, testInfo, `c2-studio-inbox-context-${screen.width}`);
    await card.getByTestId('cancel-interrupt-button').click();
    await expect(card).toHaveCount(0);

    // More than the order cost: the card says so. A well-formed id of its own (po_<n> costs $n), so its mail is this test's.
    const orderId = `po_${screen.width}${(Date.now() % 9000) + 1000}`;
    const total = Number(orderId.slice(3));
    await send(page, `refund order ${orderId} for ${total + 50}`);
    await expect(card.getByTestId('approval-risk')).toHaveText(/The refund is more than the order cost \(\$[\d,]+\.00\)\./);
    await snap(page, testInfo, `c3-refund-over-the-total-${screen.width}`);

    // The emailed page: the facts and the risk, the raw call behind Details, a local time.
    let link: string | undefined;
    await expect.poll(async () => (link = await mailedLink(orderId)), { timeout: 20_000 }).toBeTruthy();
    const mail = await context.newPage();
    await mail.goto(link!);
    await expect(mail.getByTestId('link-context')).toContainText('Demo Customer');
    await expect(mail.getByTestId('link-context')).toContainText('The refund is more than the order cost');
    await expect(mail.getByTestId('link-args')).toBeHidden();
    await expect(mail.getByTestId('link-request')).not.toContainText('GMT');
    await snap(mail, testInfo, `c4-emailed-page-${screen.width}`);
    // Withdrawn, so the specs after this one find the inbox as it was.
    await card.getByTestId('cancel-interrupt-button').click();
    await expect(card).toHaveCount(0);
    expect(problems).toEqual([]);
    await context.close();
  });
}
