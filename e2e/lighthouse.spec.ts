// Lighthouse (the `lighthouse` package, driving the same Chromium) on the chat with an
// approval card open and on Studio: accessibility and best practices both score at least 95.
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { expect, test } from '@playwright/test';
import { send, waitForHydration, waitForIdle } from './helpers';

const CHROME = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

test('Lighthouse: accessibility and best practices ≥ 95 on the chat and Studio', async ({ page, baseURL }, testInfo) => {
  test.setTimeout(180_000);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'refund order po_42 for 19.99');
  await expect(page.getByTestId('approval-card')).toBeVisible();
  await waitForIdle(page);
  const chatUrl = page.url();

  const chrome = await launch({ chromePath: CHROME, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  try {
    const scores: Record<string, Record<string, number>> = {};
    for (const [name, url] of [
      ['chat', chatUrl],
      ['studio', `${baseURL}/studio`],
    ] as const) {
      // The pages hold a live stream open, so the network never falls quiet: without a shorter wait
      // Lighthouse waits its full 45 s for each before auditing what loaded long before.
      const result = await lighthouse(url, {
        port: chrome.port,
        onlyCategories: ['accessibility', 'best-practices'],
        output: 'json',
        logLevel: 'error',
        maxWaitForLoad: 8_000,
        disableFullPageScreenshot: true,
      });
      const categories = result!.lhr.categories;
      scores[name] = { accessibility: Math.round(categories.accessibility.score! * 100), bestPractices: Math.round(categories['best-practices'].score! * 100) };
      const failed = Object.values(result!.lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
        .map((audit) => audit.id);
      await testInfo.attach(`lighthouse-${name}.json`, { body: JSON.stringify({ scores: scores[name], failed }, null, 2), contentType: 'application/json' });
    }
    console.log(`Lighthouse scores: ${JSON.stringify(scores)}`);
    for (const score of Object.values(scores)) {
      expect(score.accessibility).toBeGreaterThanOrEqual(95);
      expect(score.bestPractices).toBeGreaterThanOrEqual(95);
    }
  } finally {
    chrome.kill();
  }
  // Withdraw the request, so no pause is left behind.
  await page.getByTestId('cancel-interrupt-button').click();
  await waitForIdle(page);
});
