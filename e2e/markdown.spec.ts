// Markdown in the chat (components/markdown.tsx): the scripted model's "show me markdown" reply
// is formatted while it streams and once it is done — bold, inline code, a code block, a list and
// a table, never the raw syntax — in the first paint from the server, on a phone without pushing
// the page sideways, in Studio's audit trail, and its link opens only through the app's dialog.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { collectConsoleProblems, send, snap, waitForHydration, waitForIdle } from './helpers';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

test('the markdown reply renders while it streams and after, with no raw syntax', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);

  // Every state of the reply while it streams, as the page painted it: bold and a code block
  // show formatted mid-stream, and no state shows the raw `**` or a code fence.
  await page.evaluate(() => {
    const seen = { states: 0, bold: 0, codeBlock: 0, raw: [] as string[] };
    Object.assign(window, { markdownSeen: seen });
    new MutationObserver(() => {
      const reply = [...document.querySelectorAll<HTMLElement>('[data-testid="message-assistant"]')].at(-1);
      if (!reply?.hasAttribute('data-streaming')) return;
      seen.states++;
      if (reply.querySelector('strong')) seen.bold++;
      if (reply.querySelector('pre')) seen.codeBlock++;
      const text = reply.innerText;
      if (text.includes('**') || text.includes('```')) seen.raw.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await send(page, 'show me markdown');
  const reply = page.getByTestId('message-assistant').last();
  await expect(reply.locator('pre')).toContainText('}');
  await expect(reply).not.toHaveAttribute('data-streaming');
  await waitForIdle(page);
  const seen = await page.evaluate(
    () => (window as unknown as { markdownSeen: { states: number; bold: number; codeBlock: number; raw: string[] } }).markdownSeen,
  );
  expect(seen.states).toBeGreaterThan(10);
  expect(seen.bold).toBeGreaterThan(0);
  expect(seen.codeBlock).toBeGreaterThan(0);
  expect(seen.raw).toEqual([]);
  await expect(reply.getByRole('heading', { name: 'Markdown, rendered as it streams' })).toBeVisible();
  await expect(reply.locator('strong').filter({ hasText: 'markdown' })).toBeVisible();
  await expect(reply.locator('code').filter({ hasText: 'po_42' }).first()).toBeVisible();
  await expect(reply.locator('li')).toHaveCount(3);
  await expect(reply.locator('pre')).toContainText('orders.reduce((sum, order) => sum + order.amount, 0);');
  // The TypeScript is coloured: its keyword and its identifiers are painted in different colours.
  await expect.poll(() => reply.locator('pre span').evaluateAll((spans) => new Set(spans.map((span) => getComputedStyle(span).color)).size)).toBeGreaterThan(2);
  await expect(reply.locator('table th')).toHaveText(['Order', 'Item', 'Total']);
  await expect(reply.locator('table td').filter({ hasText: '$19.99' })).toBeVisible();
  const text = await reply.innerText();
  for (const raw of ['**', '```', '| --- |', '## ', '](https://']) expect(text).not.toContain(raw);
  expect(await seriousViolations(page)).toEqual([]);
  // A screen reader hears the reply as shown, not its markdown source.
  await expect(page.getByTestId('announcer')).toHaveText(/^Helpdesk: Markdown, rendered as it streams This reply is markdown\. /);
  await expect(page.getByTestId('announcer')).not.toContainText('**');
  await snap(page, testInfo, '01-markdown-done');

  // The code block's copy button copies the code as written.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await reply.getByRole('button', { name: 'Copy code' }).click();
  expect((await page.evaluate(() => navigator.clipboard.readText())).trimEnd()).toBe(
    'function total(orders: { amount: number }[]): number {\n  return orders.reduce((sum, order) => sum + order.amount, 0);\n}',
  );

  // The link opens only through the dialog that shows its whole address; Cancel goes nowhere.
  await reply.getByRole('button', { name: 'the CommonMark help' }).click();
  const dialog = page.getByTestId('link-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('link-dialog-url')).toHaveText('https://commonmark.org/help/');
  await expect(dialog.getByTestId('link-dialog-cancel')).toBeFocused();
  await snap(page, testInfo, '02-markdown-link-dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(page.context().pages()).toHaveLength(1);

  // The server renders the markdown into the first paint, before any script runs.
  const threadUrl = page.url();
  const html = await (await page.request.get(threadUrl)).text();
  expect(html).toMatch(/<table[\s\S]*po_42[\s\S]*<\/table>/);
  expect(html).toMatch(/<strong[^>]*>markdown<\/strong>/);

  // Studio's audit trail shows the message as markdown too.
  await page.getByTestId('chat-audit-link').click();
  const entry = page.locator('[data-testid="audit-entry"][data-kind="message"]').filter({ hasText: 'Markdown, rendered as it streams' });
  const message = entry.getByTestId('markdown');
  await expect(message.locator('table th')).toHaveText(['Order', 'Item', 'Total']);
  await expect(message.locator('pre')).toContainText('orders.reduce');
  expect(await entry.innerText()).not.toContain('**');
  await snap(page, testInfo, '03-markdown-audit-trail');
  expect(problems, problems.join('\n')).toEqual([]);
});

test('on a phone in dark mode the table scrolls inside the message, not the page', async ({ browser }, testInfo) => {
  const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'show me markdown');
  await waitForIdle(page);
  const reply = page.getByTestId('message-assistant').last();
  await expect(reply.locator('table')).toBeVisible();
  // Nothing is wider than the screen: a wide table or code line scrolls in its own box.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const box = await reply.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, testInfo, '04-markdown-phone-dark');
  expect(problems, problems.join('\n')).toEqual([]);
  await context.close();
});
