// The README's "Try the demo", as a newcomer clicks it: the home page lists the demo's agents, the
// support agent's chip asks for a refund, the approval card says what it would do, Approve makes
// the refund (kept in the demo's Refund table), and the planner's chip fills its task list. The
// demo's own spec: `npm run demo:remove` takes it along.
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, snap, waitForHydration, waitForIdle } from '../../../e2e/helpers';

test('try the demo: a chip asks a refund, Approve makes it, and the planner fills its task list', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/');
  for (const agent of ['support', 'planner', 'researcher', 'mcp-demo']) await expect(page.getByTestId(`agent-card-${agent}`)).toBeVisible();

  await page.getByTestId('agent-card-support').click();
  await waitForHydration(page);
  await page.getByTestId('suggestions').getByRole('button', { name: 'Refund order ord_42 for 19.99' }).click();
  const card = page.getByTestId('approval-card');
  await expect(card.getByTestId('approval-message')).toHaveText('Refund $19.99 on order ord_42');
  await waitForIdle(page);
  await snap(page, testInfo, 'demo-refund-asked');
  await card.getByTestId('approve-button').click();
  await expect(page.getByTestId('message-assistant').last()).toContainText(/Refunded \$19\.99 on order ord_42 \(refund re_[\w-]+\)/);
  await waitForIdle(page);
  await expect(card).toHaveCount(0);
  await snap(page, testInfo, 'demo-refund-made');

  await page.goto('/agents/planner');
  await waitForHydration(page);
  await page.getByTestId('suggestions').getByRole('button', { name: 'Plan a launch: write post, email list, tweet' }).click();
  await expect(page.getByTestId('todo-item').getByTestId('todo-title')).toHaveText(['Write post', 'Email list', 'Tweet']);
  await waitForIdle(page);
  await snap(page, testInfo, 'demo-planner-tasks');

  expect(problems, problems.join('\n')).toEqual([]);
});
