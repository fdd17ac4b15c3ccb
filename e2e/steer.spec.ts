// Steering in the web app (docs/turn-control.md, "Steer"): what is typed while a turn runs is
// added to that turn — it shows in the conversation at once and the same turn answers it.
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, send, snap, waitForHydration } from './helpers';

test('guidance typed while a turn runs steers it: the same turn answers it', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'slowly reply with 120 tokens');
  await expect(page.getByTestId('message-assistant')).toContainText('token3');

  await page.getByTestId('composer-input').fill('also say hello');
  await page.getByTestId('steer-button').click();
  await expect(page.getByTestId('composer-input')).toHaveValue('');
  // Shown at once, while the turn still runs: it becomes the thread's next user message when the
  // turn takes it in at its next step (after the 120 tokens), and that same turn answers it.
  await expect(page.getByTestId('pending-steer')).toContainText('also say hello');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  await snap(page, testInfo, '50-steered');

  await expect(page.getByTestId('message-user').last()).toHaveText('also say hello', { timeout: 20_000 });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'idle', { timeout: 20_000 });
  await expect(page.getByTestId('message-assistant').first()).toContainText('token120');
  await expect(page.getByTestId('message-assistant').last()).toContainText('also say hello');
  await expect(page.getByTestId('message-user')).toHaveText(['slowly reply with 120 tokens', 'also say hello']);
  await snap(page, testInfo, '51-steer-answered');

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('message-user')).toHaveText(['slowly reply with 120 tokens', 'also say hello']);
  expect(problems, problems.join('\n')).toEqual([]);
});
