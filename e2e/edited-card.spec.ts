// Off the main road, item 7: once a call is approved with edits, its card says what will run —
// the edited values, each beside what was asked, the request's own line struck as "as asked" —
// and the hint under the composer agrees with the banner about what is still to decide.
import { expect, test } from '@playwright/test';
import { pageOn, SCREENS, send, snap, waitForIdle } from './helpers';

for (const screen of SCREENS) {
  test(`a card approved with edits shows the call as it will run (${screen.width} px, ${screen.colorScheme})`, async ({ browser }, testInfo) => {
    const { context, page, problems } = await pageOn(browser, screen, '/agents/helpdesk');
    // Two calls in one step: the first decision waits for the second, so its card can be read.
    await send(page, 'call refundPayment {"orderId":"po_42","amount":19.99}; call closeTicket {"ticketId":"T-7"}');
    const cards = page.getByTestId('approval-card');
    await expect(cards).toHaveCount(2);
    await waitForIdle(page);
    const refund = cards.filter({ has: page.getByTestId('approval-field-amount') });
    await refund.getByTestId('edit-button').click();
    await refund.getByTestId('edit-field-amount').fill('15');
    await refund.getByTestId('approve-edited-button').click();

    await expect(refund.getByTestId('approval-staged')).toContainText('Approved with edits');
    await expect(refund.getByTestId('approval-field-amount')).toContainText('$15.00');
    await expect(refund.getByTestId('approval-field-amount').getByTestId('approval-field-was')).toHaveText('(was $19.99)');
    await expect(refund.getByTestId('approval-field-orderId')).not.toContainText('was');
    await expect(refund.getByTestId('approval-message')).toHaveAttribute('data-edited', 'true');
    await expect(refund.getByTestId('approval-message')).toContainText('As asked:');
    // One of two decided: the banner and the hint both say there is more to decide.
    await expect(page.getByTestId('interrupt-progress')).toContainText('1 of 2 decided');
    await expect(page.getByTestId('composer')).toContainText('Decide above first');
    await snap(page, testInfo, `e1-approved-with-edits-${screen.width}-${screen.colorScheme}`);

    await cards
      .filter({ hasNot: page.getByTestId('approval-field-amount') })
      .getByTestId('approve-button')
      .click();
    await waitForIdle(page);
    await expect(cards).toHaveCount(0);
    await expect(page.getByTestId('composer')).not.toContainText('Decide above first');
    expect(problems, problems.join('\n')).toEqual([]);
    await context.close();
  });
}
