// A tool's preliminary outputs in the web app (docs/turn-control.md, "Concurrent tools"): the
// researcher's search shows its progress on the call while it runs, then its result.
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, send, snap, waitForHydration, waitForIdle } from './helpers';

test("a running tool's progress shows on its call, then its result", async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/librarian');
  await waitForHydration(page);
  await send(page, 'launch timing');
  const call = page.getByTestId('tool-call');
  await expect(call.getByTestId('tool-progress')).toContainText('"status": "searching"');
  await snap(page, testInfo, '70-tool-progress');
  await expect(call.getByTestId('tool-result')).toContainText('Launches land best on Tuesdays');
  await expect(call.getByTestId('tool-progress')).toHaveCount(0);
  await waitForIdle(page);
  await send(page, 'pricing');
  await expect(page.getByTestId('tool-call')).toHaveCount(2);
  await waitForIdle(page);
  await expect(page.getByTestId('tool-result').last()).toContainText('Three tiers');
  await snap(page, testInfo, '71-tool-progress-done');
  expect(problems, problems.join('\n')).toEqual([]);
});
