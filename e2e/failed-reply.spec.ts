// Off the main road, item 3 (docs/turn-control.md, "Retry"): a reply a failed turn cut short
// stays marked failed — with its error's code and the server log's reference — after the next
// message and after a reload; it never passes for a whole reply. A retry that goes through takes
// the cut-off reply, and its mark, away.
import { expect, test } from '@playwright/test';
import { pageOn, SCREENS, send, snap, THREAD_URL, waitForHydration, waitForIdle } from './helpers';

for (const screen of SCREENS) {
  test(`a failed reply stays marked failed after the next turn and a reload (${screen.width} px, ${screen.colorScheme})`, async ({ browser }, testInfo) => {
    const { context, page, problems } = await pageOn(browser, screen, '/agents/helpdesk');

    await send(page, 'fail after 5 tokens');
    const cut = page.getByTestId('message-assistant').filter({ hasText: 'token5' });
    await expect(page.getByTestId('run-error')).toContainText('This reply failed');
    await expect(cut.getByTestId('message-failed')).toContainText('Failed — this reply was cut short');
    await expect(cut.getByTestId('message-failed')).toContainText(/\(model_error, ref [0-9a-f]{8}\)/);
    await expect(page).toHaveURL(THREAD_URL('helpdesk'));
    await snap(page, testInfo, `f1-failed-${screen.width}-${screen.colorScheme}`);

    // The next turn answers; the cut-off reply above it still says what it is.
    await send(page, 'reply with 3 tokens');
    await waitForIdle(page);
    await expect(page.getByTestId('message-assistant').last()).toHaveText(/token1 token2 token3/);
    await expect(page.getByTestId('run-error')).toHaveCount(0);
    await expect(cut).toHaveAttribute('data-failed', 'true');
    await expect(cut.getByTestId('message-failed')).toBeVisible();
    await expect(page.getByTestId('message-assistant').last()).not.toHaveAttribute('data-failed');
    await snap(page, testInfo, `f2-failed-after-next-turn-${screen.width}-${screen.colorScheme}`);

    // A reload reads the same from the server.
    await page.reload();
    await waitForHydration(page);
    await expect(cut.getByTestId('message-failed')).toContainText(/\(model_error, ref [0-9a-f]{8}\)/);
    await expect(page.getByTestId('message-assistant').filter({ has: page.getByTestId('message-failed') })).toHaveCount(1);
    await snap(page, testInfo, `f3-failed-after-reload-${screen.width}-${screen.colorScheme}`);
    expect(problems, problems.join('\n')).toEqual([]);
    await context.close();
  });
}

test('a retry that goes through takes the cut-off reply and its mark away, also after a reload', async ({ page }) => {
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'fail once after 4 tokens');
  await expect(page.getByTestId('message-failed')).toBeVisible();
  await page.getByTestId('retry-button').click();
  await waitForIdle(page);
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  await expect(page.getByTestId('message-failed')).toHaveCount(0);
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('message-assistant')).toHaveCount(1);
  await expect(page.getByTestId('message-failed')).toHaveCount(0);
});
