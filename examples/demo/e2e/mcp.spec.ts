// The demo's MCP agent in the web app (docs/mcp.md, "Elicitation"): a question its MCP server
// asks mid-call is answered in the chat, and the server receives the answer. The demo's own
// spec: `npm run demo:remove` takes it along.
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, snap, waitForHydration, waitForIdle } from '../../../e2e/helpers';

test("mcp-demo: an MCP server's question is answered in the chat, and the server receives the answer", async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/mcp-demo');
  await waitForHydration(page);

  // The demo's own suggestion, as a newcomer would pick it: the demo MCP server's tool elicits a
  // form (docs/mcp.md, "Elicitation"), shown as a question card like any other.
  await page.getByTestId('suggestions').getByRole('button', { name: 'Schedule a review of the launch plan' }).click();
  await expect(page.getByTestId('tool-call')).toHaveAttribute('data-tool-name', 'demo_schedule_review');
  const card = page.getByTestId('approval-card');
  await expect(card).toHaveAttribute('data-reason', 'input_required');
  await expect(card).toContainText('Which day should the review of the launch plan be?');
  await waitForIdle(page);
  await card.getByTestId('answer-field-day').selectOption('Thursday');
  await card.getByTestId('answer-button').click();
  // The tool was called again and the server got the answer: its result names the day.
  await expect(page.getByTestId('tool-call').getByTestId('tool-result')).toContainText('Review of the launch plan scheduled for Thursday.');
  await waitForIdle(page);
  await expect(card).toHaveCount(0);
  await snap(page, testInfo, '19-mcp-question-answered');

  expect(problems, problems.join('\n')).toEqual([]);
});
