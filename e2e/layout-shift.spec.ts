// Off the main road, item 10: the transcript holds still while turns come and go — a message's
// actions (Regenerate, the pencil) keep their place during a turn instead of vanishing and coming
// back. Measured as the browser does (layout-shift entries, as Core Web Vitals' CLS counts them)
// over a 5-turn session; the sum of every shift is an upper bound of CLS, which must stay under 0.1.
import { expect, test } from '@playwright/test';
import { pageOn, SCREENS, send, snap, waitForIdle } from './helpers';

/** Every layout shift not caused by the user's own input, since the page loaded. */
declare global {
  interface Window {
    __layoutShift?: number;
  }
}

for (const screen of SCREENS) {
  test(`five turns shift the layout by less than 0.1 (${screen.width} px, ${screen.colorScheme})`, async ({ browser }, testInfo) => {
    const { context, page } = await pageOn(browser, screen, '/agents/helpdesk', (page) =>
      page.addInitScript(() => {
        window.__layoutShift = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) window.__layoutShift! += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
      }),
    );
    for (const text of ['reply with 12 tokens', 'say 3 words', 'look up order po_42', 'reply with 30 tokens', 'say 5 words']) {
      await send(page, text);
      await waitForIdle(page);
    }
    await expect(page.getByTestId('message-user')).toHaveCount(5);
    // Every finished reply keeps its Regenerate in place.
    await expect(page.getByTestId('regenerate-button').first()).toBeVisible();
    const shift = await page.evaluate(() => window.__layoutShift ?? 0);
    testInfo.annotations.push({ type: 'layout shift', description: shift.toFixed(4) });
    console.log(`[layout shift] ${screen.width} px ${screen.colorScheme}: ${shift.toFixed(4)} over 5 turns`);
    await snap(page, testInfo, `l1-five-turns-${screen.width}-${screen.colorScheme}`);
    expect(shift).toBeLessThan(0.1);
    await context.close();
  });
}
