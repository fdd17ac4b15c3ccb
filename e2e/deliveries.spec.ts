// Off the main road, item 8 (docs/approvals.md, "Decision webhooks"): Studio's deliveries in
// words a person reads — what a notice was about, a link to its conversation, and an email kept
// for want of SMTP shown as kept, never as delivered — and on a phone the status stays in view.
import { expect, test } from '@playwright/test';
import { pageOn, SCREENS, send, snap } from './helpers';

for (const screen of SCREENS) {
  test(`Studio's deliveries say what was sent, kept or failed, in words (${screen.width} px, ${screen.colorScheme})`, async ({ browser }, testInfo) => {
    // A refund over $100 waits for two approvers and mails the refunds desk: no SMTP here, so the mail is kept.
    const { context, page, problems } = await pageOn(browser, screen, '/agents/helpdesk');
    const amount = (100 + Math.floor(Math.random() * 800) + 0.25).toFixed(2);
    await send(page, `refund order po_1 for ${amount}`);
    await expect(page.getByTestId('approval-card')).toBeVisible();

    await page.goto('/studio');
    const row = page
      .getByTestId('delivery-row')
      .filter({ hasText: 'refunds@example.com' })
      .filter({ hasText: `$${amount}` });
    await expect(row).toHaveAttribute('data-shown-status', 'kept', { timeout: 15_000 });
    await expect(row.getByTestId('delivery-notice')).toHaveText('Approval requested');
    await expect(row.locator('td').nth(1)).toHaveText('Kept here');
    await expect(row).not.toContainText('Delivered');
    await expect(row.getByRole('link', { name: 'its conversation' })).toHaveAttribute('href', /^\/studio\/sessions\//);
    // The status is on screen, and the page does not scroll sideways.
    await row.scrollIntoViewIfNeeded();
    const status = row.locator('td').nth(1);
    const box = (await status.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(screen.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(screen.width);
    await snap(page, testInfo, `s1-deliveries-${screen.width}-${screen.colorScheme}`);
    expect(problems, problems.join('\n')).toEqual([]);
    await context.close();
  });
}
