// Off the main road, item 9 (docs/studio.md): the audit trail speaks the chat's language — a tool
// by the title the chat shows ("Refund an order"), never its code name, in every line. (Which
// channel a decision came through is checked over HTTP: tests/integration/approval-links.test.ts.)
import { expect, test } from '@playwright/test';
import { pageOn, SCREENS, send, snap, THREAD_URL, waitForIdle } from './helpers';

for (const screen of SCREENS) {
  test(`the audit trail names tools as the chat does (${screen.width} px, ${screen.colorScheme})`, async ({ browser }, testInfo) => {
    const { context, page, problems } = await pageOn(browser, screen, '/agents/helpdesk');
    await send(page, 'refund order po_42 for 19.99');
    const card = page.getByTestId('approval-card');
    await expect(card).toBeVisible();
    await expect(page).toHaveURL(THREAD_URL('helpdesk'));
    const threadId = page.url().split('/').at(-1)!;
    await card.getByTestId('approve-button').click();
    await waitForIdle(page);
    await expect(page.getByTestId('message-assistant').last()).toContainText('Refunded $19.99');

    await page.goto(`/studio/sessions/${threadId}`);
    const entries = page.getByTestId('audit-entry');
    await expect(entries.filter({ hasText: 'The agent called “Refund an order”' })).toHaveCount(1);
    await expect(page.locator('[data-testid="audit-entry"][data-kind="decision"]')).toContainText('Approved “Refund an order”');
    await expect(entries.filter({ hasText: '“Refund an order” returned' })).toHaveCount(1);
    // The code name is for the details, not for the lines a person reads.
    for (const summary of await page.getByTestId('audit-summary').allTextContents()) expect(summary).not.toContain('refundPayment');
    await snap(page, testInfo, `t1-audit-words-${screen.width}-${screen.colorScheme}`);
    expect(problems, problems.join('\n')).toEqual([]);
    await context.close();
  });
}
