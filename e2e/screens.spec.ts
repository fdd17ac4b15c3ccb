// Screenshots of every demo flow at phone width (light) and desktop width (dark), saved as test
// artifacts (test-results/…/s-*.png) — and at each width nothing overflows sideways, and the chat,
// an approval card and Studio have no serious WCAG violations (e2e/accessibility.spec.ts checks
// the other width and scheme pairs; each flow here is ~30 s of the suite's budget).
import { expect, test, type Page } from '@playwright/test';
import { collectConsoleProblems, send, seriousViolations, snap, waitForHydration, waitForIdle } from './helpers';

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

// Each width once and each scheme once: what overflows depends on the width alone, and the other
// width and scheme pairs are checked for WCAG violations by e2e/accessibility.spec.ts.
for (const [width, colorScheme] of [
  [375, 'light'],
  [1280, 'dark'],
] as const) {
  test(`every demo flow at ${width} px, ${colorScheme}`, async ({ browser }, testInfo) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ colorScheme, viewport: { width, height: 800 } });
    const page = await context.newPage();
    const problems = collectConsoleProblems(page);
    const shot = (name: string) => snap(page, testInfo, `s-${name}-${width}-${colorScheme}`);

    await page.goto('/');
    await shot('home');
    await noSidewaysScroll(page);

    await page.goto('/agents/helpdesk');
    await waitForHydration(page);
    await shot('support-empty');
    expect(await seriousViolations(page)).toEqual([]);
    await send(page, 'look up order po_42');
    await waitForIdle(page);
    await send(page, 'refund order po_42 for 19.99');
    await expect(page.getByTestId('approval-card')).toBeVisible();
    await waitForIdle(page);
    await shot('helpdesk-refund-card');
    await noSidewaysScroll(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('approve-button').click();
    await expect(page.getByTestId('approval-card')).toHaveCount(0);
    await waitForIdle(page);
    await shot('helpdesk-refund-approved');

    await send(page, 'close ticket T-7');
    await page.getByTestId('reject-button').click();
    await page.getByTestId('reject-reason').fill('not yet');
    await shot('support-rejecting');
    await page.getByTestId('confirm-reject-button').click();
    await waitForIdle(page);
    await expect(page.getByTestId('tool-call').last()).toHaveAttribute('data-status', 'rejected');
    await shot('support-rejected');

    await page.goto('/agents/taskboard');
    await waitForHydration(page);
    await send(page, 'plan a launch: write post, email list, tweet');
    await waitForIdle(page);
    await shot('planner-plan');
    await send(page, 'research launch timing');
    await waitForIdle(page);
    await expect(page.getByTestId('tool-call').last()).toHaveAttribute('data-status', 'done');
    await shot('planner-research');
    if (width < 1024) {
      await page.getByTestId('planner-button').click();
      await expect(page.getByTestId('thread-drawer').or(page.getByRole('dialog')).getByTestId('todo-item')).toHaveCount(3);
      await shot('planner-tasks-sheet');
      await page.keyboard.press('Escape');
    }
    await send(page, 'ask me for a launch name');
    await expect(page.getByTestId('approval-card')).toBeVisible();
    await waitForIdle(page);
    await shot('taskboard-question');
    await noSidewaysScroll(page);

    await page.goto('/studio');
    await expect(page.getByTestId('inbox-item').first()).toBeVisible();
    await shot('studio-inbox');
    await noSidewaysScroll(page);
    expect(await seriousViolations(page)).toEqual([]);
    // The approval metrics: the refund approved and the ticket rejected above are among the tools' outcomes.
    await page.goto('/studio/metrics');
    await expect(page.getByTestId('tool-outcomes').first()).toBeVisible();
    await shot('studio-metrics');
    await noSidewaysScroll(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto('/studio');
    await expect(page.getByTestId('inbox-item').first()).toBeVisible();
    // Withdrawn from Studio, so no pause is left behind for other tests.
    await page.getByTestId('inbox-item').first().getByTestId('cancel-interrupt-button').click();
    expect(problems, problems.join('\n')).toEqual([]);
    await context.close();
  });
}
