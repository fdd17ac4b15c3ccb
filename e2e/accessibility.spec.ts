// Accessibility (axe-core): the chat, an approval card and Studio (its inbox and its approval
// metrics) have no serious or critical WCAG 2 A/AA violations, in light and dark, at phone,
// tablet and desktop widths. Phone in light and desktop in dark are checked by e2e/screens.spec.ts
// on the same pages, inside its demo flows; this file checks the other four pairs.
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, send, seriousViolations, snap, waitForHydration, waitForIdle } from './helpers';

const CHECKED_BY_SCREENS = new Set(['light-375', 'dark-1280']);

for (const colorScheme of ['light', 'dark'] as const) {
  for (const viewport of [
    { width: 375, height: 800 },
    { width: 768, height: 800 },
    { width: 1280, height: 800 },
  ].filter(({ width }) => !CHECKED_BY_SCREENS.has(`${colorScheme}-${width}`))) {
    test(`no serious violations on the chat, an approval card and Studio (${colorScheme}, ${viewport.width} px)`, async ({ browser }, testInfo) => {
      const context = await browser.newContext({ colorScheme, viewport });
      const page = await context.newPage();
      const problems = collectConsoleProblems(page);
      await page.goto('/agents/helpdesk');
      await waitForHydration(page);
      expect(await seriousViolations(page)).toEqual([]);

      await send(page, 'refund order po_42 for 19.99');
      await expect(page.getByTestId('approval-card')).toBeVisible();
      await waitForIdle(page);
      expect(await seriousViolations(page)).toEqual([]);
      await snap(page, testInfo, `95-chat-approval-${colorScheme}-${viewport.width}`);

      const threadId = page.url().split('/').at(-1)!;
      await page.goto('/studio');
      const item = page.locator(`[data-testid="inbox-item"][data-session-id="${threadId}"]`);
      await expect(item).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await snap(page, testInfo, `96-studio-${colorScheme}-${viewport.width}`);
      // Cancelled from Studio, so no pause is left behind for other tests.
      await item.getByTestId('cancel-interrupt-button').click();
      await expect(item).toHaveCount(0);

      // Studio's approval metrics (docs/studio.md, "Approval metrics"): its figures, bars and longest waits.
      await page.goto('/studio/metrics');
      await expect(page.getByTestId('approval-metrics')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await snap(page, testInfo, `97-studio-metrics-${colorScheme}-${viewport.width}`);
      expect(problems, problems.join('\n')).toEqual([]);
      await context.close();
    });
  }
}
