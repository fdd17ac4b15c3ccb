// A model's reasoning in the chat (docs/internals/architecture.md, "Reasoning and provider metadata"): a
// "Thinking" block before the reply, folded once the model has moved on, opened on click, and
// the same after a reload.
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, send, snap, waitForHydration, waitForIdle } from './helpers';

test('a reasoning block comes before the reply, folds when the reply comes, and opens on click', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'think about launch timing');
  await waitForIdle(page);
  const block = page.getByTestId('reasoning');
  await expect(block).toHaveCount(1);
  await expect(block).not.toHaveAttribute('data-streaming');
  await expect(block.getByTestId('reasoning-text')).toBeHidden();
  await expect(page.getByTestId('message-assistant')).toHaveCount(1);
  await block.getByTestId('reasoning-toggle').click();
  await expect(block.getByTestId('reasoning-text')).toBeVisible();
  await expect(block.getByTestId('reasoning-text')).toContainText('launch timing');
  await snap(page, testInfo, 'r1-reasoning-open');

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('reasoning')).toHaveCount(1);
  await expect(page.getByTestId('reasoning').getByTestId('reasoning-text')).toBeHidden();
  expect(problems, problems.join('\n')).toEqual([]);
});
