// Off the main road, item 1: a refund over $100 takes two approvers (docs/approvals.md, "Quorum and
// separation of duties"). After my vote the card says "You approved" and who it waits for, offers
// no second vote (Withdraw stays), and every tab of the thread shows it live; the banner, the
// status pill and the composer say someone else decides now. The emailed link's vote decides, and
// the decision line lists both votes.
import { expect, test } from '@playwright/test';
import { mailedLink, pageOn, SCREENS, send, snap, THREAD_URL } from './helpers';

for (const screen of SCREENS) {
  test(`after my vote the card says I approved and waits for one more, live in every tab (${screen.width} px, ${screen.colorScheme})`, async ({
    browser,
  }, testInfo) => {
    // A well-formed id of its own (po_<n> is an order of $n): the mail found is this test's.
    const orderId = `po_${screen.width}${Date.now() % 100_000}`;
    const { context, page, problems } = await pageOn(browser, screen, '/agents/helpdesk');
    await send(page, `refund order ${orderId} for 129`);
    const card = page.getByTestId('approval-card');
    await expect(card.getByTestId('approve-button')).toBeEnabled();
    await expect(page).toHaveURL(THREAD_URL('helpdesk'));
    // A second tab of the same thread, open before the vote.
    const other = await context.newPage();
    await other.goto(page.url());
    await expect(other.getByTestId('approval-card').getByTestId('approve-button')).toBeEnabled();

    await card.getByTestId('approve-button').click();
    await expect(card).toHaveAttribute('data-state', 'voted');
    await expect(card.getByTestId('approval-card-status')).toHaveText('You approved');
    await expect(card.getByTestId('approval-waiting-line')).toContainText('Waiting for 1 more approver: someone on the team.');
    await expect(card.getByTestId('interrupt-votes')).toHaveText('1 of 2 approvals: you');
    // No second vote to cast; withdrawing stays.
    await expect(card.getByTestId('approve-button')).toHaveCount(0);
    await expect(card.getByTestId('reject-button')).toHaveCount(0);
    await expect(card.getByTestId('cancel-interrupt-button')).toBeEnabled();
    await expect(page.getByTestId('interrupt-progress')).toContainText('Waiting for someone on the team to decide.');
    await expect(page.getByTestId('composer-hint')).toHaveText('Someone else decides above; a message sent now waits until then.');
    await snap(page, testInfo, `q1-you-approved-${screen.width}`);

    // The other tab, without a reload.
    const otherCard = other.getByTestId('approval-card');
    await expect(otherCard.getByTestId('approval-card-status')).toHaveText('You approved');
    await expect(otherCard.getByTestId('approve-button')).toHaveCount(0);
    await snap(other, testInfo, `q2-other-tab-live-${screen.width}`);

    // The refunds desk's emailed link casts the second vote: it decides, and the refund runs.
    let link: string | undefined;
    await expect.poll(async () => (link = await mailedLink(orderId)), { timeout: 20_000 }).toBeTruthy();
    const desk = await context.newPage();
    await desk.goto(link!);
    await desk.getByTestId('link-submit').click();
    await expect(desk.getByTestId('link-decided')).toHaveAttribute('data-status', 'approved');

    for (const tab of [page, other]) {
      await expect(tab.getByTestId('approval-card')).toHaveCount(0);
      await expect(tab.getByTestId('message-assistant').last()).toContainText(`Refunded $129.00 on order ${orderId}`);
      await expect(tab.getByTestId('decision-votes').last()).toHaveText('2 approvals: you, one by an emailed or Slack link');
    }
    await page.reload();
    await expect(page.getByTestId('decision-votes').last()).toHaveText('2 approvals: you, one by an emailed or Slack link');
    await snap(page, testInfo, `q3-decision-lists-votes-${screen.width}`);
    expect(problems).toEqual([]);
    await context.close();
  });
}
