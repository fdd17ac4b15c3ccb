// The message queue in the web app (docs/turn-control.md, "Queue"): a message sent while a turn
// runs is queued under the composer, not dropped; it can be edited or removed there; when the
// turn ends it goes out, as edited, as a turn of its own — and a reload shows the same thread.
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, send, snap, waitForHydration, waitForIdle } from './helpers';

test('a queued message edited and sent', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'slowly reply with 160 tokens');
  await expect(page.getByTestId('message-assistant')).toContainText('token3');

  // While the turn runs (8 s: long enough to edit the queue on a loaded machine), the primary button queues.
  await expect(page.getByTestId('send-button')).toHaveText('Queue');
  await send(page, 'say 2 words');
  await send(page, 'say 5 words');
  const items = page.getByTestId('queue-item');
  await expect(items.getByTestId('queue-item-text')).toHaveText(['say 2 words', 'say 5 words']);
  await expect(page.getByTestId('composer-input')).toHaveValue('');
  await snap(page, testInfo, '60-queued');

  await items.nth(0).getByTestId('queue-edit-button').click();
  await items.nth(0).getByTestId('queue-edit-input').fill('say 3 words');
  await items.nth(0).getByTestId('queue-save-button').click();
  await items.nth(1).getByTestId('queue-remove-button').click();
  await expect(items.getByTestId('queue-item-text')).toHaveText(['say 3 words']);
  // Nothing queued is in the conversation yet.
  await expect(page.getByTestId('message-user')).toHaveText(['slowly reply with 160 tokens']);
  await snap(page, testInfo, '61-queue-edited');

  // The turn ends; the edited message goes out as its own turn and the queue empties.
  await expect(page.getByTestId('message-user')).toHaveText(['slowly reply with 160 tokens', 'say 3 words'], { timeout: 30_000 });
  await expect(page.getByTestId('message-assistant').last()).toHaveText('token1 token2 token3');
  await expect(page.getByTestId('message-queue')).toHaveCount(0);
  await waitForIdle(page);
  await expect(page.getByTestId('send-button')).toHaveText('Send');
  await expect(page.getByTestId('message-assistant').first()).toContainText('token160');
  await snap(page, testInfo, '62-queue-sent');

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('message-user')).toHaveText(['slowly reply with 160 tokens', 'say 3 words']);
  expect(problems, problems.join('\n')).toEqual([]);
});
