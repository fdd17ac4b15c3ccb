// The agent `npm run agent:new -- billing` writes, in a production build with no model key: the
// home page lists it, its empty chat offers its phrases as chips, the gated one opens an approval
// card, and Approve runs the tool once (e2e/own-agent/playwright.config.ts says how it is served).
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, snap, waitForHydration, waitForIdle } from '../helpers';

test('your first agent, offline: listed, a chip opens an approval card, Approve runs the tool', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/');
  await expect(page.getByTestId('agent-card-billing')).toBeVisible();
  await snap(page, testInfo, 'own-agent-home');

  await page.getByTestId('agent-card-billing').click();
  await waitForHydration(page);
  const chips = page.getByTestId('suggestions').getByRole('button');
  await expect(chips).toHaveText(['Add a task: send the March invoices', 'List my tasks']);
  await chips.first().click();
  const card = page.getByTestId('approval-card');
  await expect(card.getByTestId('approval-message')).toHaveText('Add the task "send the March invoices"');
  await waitForIdle(page);
  await snap(page, testInfo, 'own-agent-approval');
  await card.getByTestId('approve-button').click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('Added task T1: send the March invoices.');
  await waitForIdle(page);
  await expect(card).toHaveCount(0);
  await snap(page, testInfo, 'own-agent-approved');

  expect(problems, problems.join('\n')).toEqual([]);
});
