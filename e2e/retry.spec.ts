// Retry in the web app (docs/turn-control.md): a turn that failed mid-reply shows the error
// with a Retry button; Retry runs the turn again, the partial reply gives way to the full one,
// and a reload shows the thread as it ended.
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, send, snap, THREAD_URL, waitForHydration, waitForIdle } from './helpers';

test('a failed turn is retried with one click: the partial reply gives way to the full one', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/support');
  await waitForHydration(page);
  await send(page, 'fail once after 5 words');
  const error = page.getByTestId('run-error');
  await expect(error).toHaveAttribute('data-code', 'model_error');
  await expect(page.getByTestId('message-assistant')).toHaveText('token1 token2 token3 token4 token5');
  await expect(page).toHaveURL(THREAD_URL('support'));
  await snap(page, testInfo, '40-failed-with-retry');

  // The failure is part of the server's first paint: after a reload Retry is still offered.
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('retry-button')).toBeVisible();

  await page.getByTestId('retry-button').click();
  await waitForIdle(page);
  await expect(error).toHaveCount(0);
  await expect(page.getByTestId('message-assistant')).toHaveCount(1);
  await expect(page.getByTestId('message-assistant')).toHaveText('token1 token2 token3 token4 token5');
  await expect(page.getByTestId('retry-button')).toHaveCount(0);
  await snap(page, testInfo, '41-retried');

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  await expect(page.getByTestId('message-assistant')).toHaveCount(1);
  expect(problems, problems.join('\n')).toEqual([]);
});
