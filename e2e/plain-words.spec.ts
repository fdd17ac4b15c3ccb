// Off the main road, item 11 (its smaller parts): the chat speaks as a person would. The page's
// own tools have names ("Your local time and language", not "Get browser context"), a declined
// call reads "I didn't close ticket: you declined it", and on a phone the status pill says its
// state in words, not with an icon alone.
import { expect, test } from '@playwright/test';
import { pageOn, SCREENS, send, snap, waitForIdle } from './helpers';

for (const screen of SCREENS) {
  test(`tools, refusals and the status say it in words (${screen.width} px, ${screen.colorScheme})`, async ({ browser }, testInfo) => {
    const { context, page, problems } = await pageOn(browser, screen, '/agents/helpdesk');
    await send(page, 'what time is it for me');
    await waitForIdle(page);
    await expect(page.getByTestId('tool-call').last()).toContainText('Your local time and language');
    await expect(page.getByTestId('tool-call').last()).not.toContainText('Get browser context');

    await send(page, 'close ticket T-7');
    const card = page.getByTestId('approval-card');
    await card.getByTestId('reject-button').click();
    await card.getByTestId('reject-reason').fill('the customer is still waiting');
    await card.getByTestId('confirm-reject-button').click();
    await expect(page.getByTestId('message-assistant').last()).toHaveText("I didn't close ticket: you declined it (“the customer is still waiting”).");
    await waitForIdle(page);

    // The pill says "Ready" in words, on a phone too.
    const pill = page.getByTestId('run-status');
    await expect(pill).toHaveText('Ready');
    expect((await pill.boundingBox())!.width).toBeGreaterThan(50);
    await snap(page, testInfo, `w1-plain-words-${screen.width}`);
    expect(problems).toEqual([]);
    await context.close();
  });
}
