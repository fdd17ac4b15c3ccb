// Studio's approval metrics (docs/studio.md, "Approval metrics") on a server of this spec's own, so
// that no other spec's approvals are counted: approvals asked in chats and decided as people do —
// approved and rejected in the chat, edited, approved and withdrawn in Studio's inbox, one left to
// expire, two left waiting — and two decided days ago, written into the log as the store writes
// them. The metrics page must show what the test works out from the log itself: pending now, the
// median and p95 time to decide, every tool's outcomes over 7 and 30 days, and the longest waits,
// which link to their chats. Screenshots at 1280 and 375 px, light and dark, each without serious
// WCAG violations and, on the phone, without sideways scrolling.
import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { interruptRecord } from '../server/store/conformance/support';
import { formatElapsed } from '../components/studio/elapsed';
import { freshSqliteUrl } from '../tests/support/database';
import { startServer, type TestServer } from '../tests/support/server';
import { expectedMetrics, readEveryLog, writeDecidedApproval, type ExpectedMetrics } from './approval-log';
import { collectConsoleProblems, send, seriousViolations, snap, waitForHydration, waitForIdle } from './helpers';

const DAY = 86_400_000;
/** The local owner of open dev mode, whose every session is (server/credentials/open-dev-mode.ts). */
const LOCAL_OWNER = 'local';

let server: TestServer;

test.beforeAll(async () => {
  // A server start (a migrated database, `next start`) is in it: a few seconds on an idle machine, far more on a busy one.
  test.setTimeout(120_000);
  // Its sweep comes round often, so the approval that expires after a second is decided at once.
  server = await startServer({ port: 3105, databaseUrl: await freshSqliteUrl(), env: { STACKBONE_API_KEYS: '', STACKBONE_SWEEP_MS: '250' } });
});

test.afterAll(async () => {
  await server?.kill();
});

/** A new chat with `agent` in which `text` pauses for an approval: answers the card's interrupt id. */
async function askInNewChat(page: Page, agent: string, text: string): Promise<string> {
  await page.goto(`${server.url}/agents/${agent}`);
  await waitForHydration(page);
  return askHere(page, text);
}

async function askHere(page: Page, text: string): Promise<string> {
  await send(page, text);
  const card = page.getByTestId('approval-card');
  await expect(card).toBeVisible();
  await waitForIdle(page);
  return (await card.getAttribute('data-interrupt-id'))!;
}

/** The metrics page as it shows `expected` in the window of `days`. */
async function expectFigures(page: Page, expected: ExpectedMetrics, days: 7 | 30) {
  const window = expected.windows[days];
  await expect(page.getByTestId('approval-metrics')).toHaveAttribute('data-days', String(days));
  const figure = (name: string) => page.getByTestId(`metric-${name}-value`);
  await expect(figure('pending')).toHaveText(String(expected.pending.length));
  for (const [name, ms] of [
    ['median', window.medianMs],
    ['p95', window.p95Ms],
  ] as const) {
    await expect(figure(name)).toHaveAttribute('data-value', String(ms));
    await expect(figure(name)).toHaveText(formatElapsed(ms!));
  }
  await expect(figure('decided')).toHaveText(String(window.decided));

  const tools = page.getByTestId('tool-outcomes');
  await expect(tools).toHaveCount(window.tools.length);
  for (const [index, tool] of window.tools.entries()) {
    const shown = tools.nth(index);
    await expect(shown).toHaveAttribute('data-tool', tool.toolName);
    await expect(shown).toHaveAttribute('data-agent', tool.agent);
    await expect(shown.getByTestId('tool-outcomes-total')).toHaveText(String(tool.total));
    for (const [outcome, count] of Object.entries(tool.counts))
      await expect(shown.locator(`[data-testid="outcome-count"][data-outcome="${outcome}"]`).getByTestId('outcome-count-value')).toHaveText(String(count));
  }
}

async function expectLongestWaits(page: Page, expected: ExpectedMetrics, at: number) {
  const waits = page.getByTestId('slowest-approval');
  await expect(waits).toHaveCount(expected.pending.length);
  for (const [index, { interruptId, openedAt }] of expected.pending.entries()) {
    await expect(waits.nth(index)).toHaveAttribute('data-interrupt-id', interruptId);
    await expect(waits.nth(index).getByTestId('slowest-waiting')).toHaveAttribute('data-value', String(at - openedAt));
    await expect(waits.nth(index).getByTestId('slowest-waiting')).toHaveText(formatElapsed(at - openedAt));
  }
}

/**
 * A screenshot of the whole page: the page scrolls inside the app's main area (components/page-frame.tsx),
 * so the viewport is made as tall as the content for it, and given back after.
 */
async function snapWhole(page: Page, testInfo: TestInfo, name: string) {
  const viewport = page.viewportSize()!;
  const height = await page.getByTestId('approval-metrics').evaluate((metrics) => {
    const frame = metrics.closest('.overflow-y-auto')!;
    return frame.scrollHeight + frame.getBoundingClientRect().top;
  });
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, Math.ceil(height)) });
  await snap(page, testInfo, name);
  await page.setViewportSize(viewport);
}

async function openMetrics(browser: Browser, screen: { width: number; colorScheme: 'light' | 'dark' }) {
  const context = await browser.newContext({ viewport: { width: screen.width, height: 900 }, colorScheme: screen.colorScheme });
  const page = await context.newPage();
  const problems = collectConsoleProblems(page);
  await page.goto(`${server.url}/studio/metrics`);
  await expect(page.getByTestId('approval-metrics')).toBeVisible();
  return { context, page, problems };
}

test('the metrics page shows what the log says of the approvals: pending, time to decide, outcomes per tool over 7 and 30 days, longest waits', async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const context = await browser.newContext();
  const chat = await context.newPage();
  const studio = await context.newPage();
  const problems = [chat, studio].map(collectConsoleProblems);

  // Approved, then rejected with a reason, in the chat.
  await askInNewChat(chat, 'helpdesk', 'refund order po_42 for 19.99');
  await chat.getByTestId('approve-button').click();
  await expect(chat.getByTestId('approval-card')).toHaveCount(0);
  await waitForIdle(chat);
  await askHere(chat, 'close ticket T-7');
  await chat.getByTestId('reject-button').click();
  await chat.getByTestId('reject-reason').fill('The customer is still waiting on a reply');
  await chat.getByTestId('confirm-reject-button').click();
  await expect(chat.getByTestId('tool-call').last()).toHaveAttribute('data-status', 'rejected');
  await waitForIdle(chat);

  // Edited, approved and withdrawn in Studio's inbox.
  await studio.goto(`${server.url}/studio`);
  const inboxEntry = (id: string) => studio.locator(`[data-testid="inbox-item"][data-interrupt-id="${id}"]`);
  const edited = inboxEntry(await askInNewChat(chat, 'helpdesk', 'refund order po_42 for 30'));
  await edited.getByTestId('edit-button').click();
  await edited.getByTestId('edit-field-amount').fill('5');
  await edited.getByTestId('approve-edited-button').click();
  await expect(edited).toHaveCount(0);
  await expect(chat.getByTestId('approval-card')).toHaveCount(0);
  await waitForIdle(chat);
  const approved = inboxEntry(await askHere(chat, 'close ticket T-8'));
  await approved.getByTestId('approve-button').click();
  await expect(approved).toHaveCount(0);
  await expect(chat.getByTestId('approval-card')).toHaveCount(0);
  await waitForIdle(chat);
  const withdrawn = inboxEntry(await askHere(chat, 'close ticket T-10'));
  await withdrawn.getByTestId('cancel-interrupt-button').click();
  await expect(withdrawn).toHaveCount(0);
  await expect(chat.getByTestId('approval-card')).toHaveCount(0);
  await waitForIdle(chat);

  // Nobody decides within its second: its default action, denial, is taken by the expiry.
  await askInNewChat(chat, 'ledger', 'call expiringEffect {"key":"late"}');
  await expect(chat.getByTestId('approval-card')).toHaveCount(0, { timeout: 20_000 });
  await waitForIdle(chat);

  // Two left waiting, the closure the longer.
  const waitingClosure = await askInNewChat(chat, 'helpdesk', 'close ticket T-9');
  const waitingRefund = await askInNewChat(chat, 'helpdesk', 'refund order po_42 for 12');

  // Decided ten days ago (the 30 days' only) and forty days ago (neither window's).
  const now = Date.now();
  for (const [daysAgo, toolName, decision] of [
    [10, 'closeTicket', { status: 'approved' as const }],
    [40, 'refundPayment', { status: 'denied' as const, reason: 'Duplicate' }],
  ] as const) {
    const openedAt = new Date(now - daysAgo * DAY);
    writeDecidedApproval(server.databaseUrl, {
      ownerId: LOCAL_OWNER,
      agent: 'helpdesk',
      record: interruptRecord({ agent: 'helpdesk', toolName, message: `${toolName} asked ${daysAgo} days ago` }),
      decision: { ...decision, by: { source: 'studio', ownerId: LOCAL_OWNER, credential: 'local' } },
      openedAt,
      decidedAt: new Date(openedAt.getTime() + 90_000),
    });
  }

  // Studio's header leads to the page.
  await studio.goto(`${server.url}/studio`);
  await studio.getByTestId('studio-metrics-link').click();
  await expect(studio).toHaveURL(`${server.url}/studio/metrics`);
  const metrics = studio.getByTestId('approval-metrics');
  await expect(metrics).toBeVisible();
  const at = Date.parse((await metrics.getAttribute('data-at'))!);
  const expected = expectedMetrics(readEveryLog(server.databaseUrl), at);

  // The log holds what was done above, so the comparison below is of figures that mean something.
  expect(expected.pending.map((open) => open.interruptId)).toEqual([waitingClosure, waitingRefund]);
  expect(expected.windows[7].tools.map((tool) => [tool.agent, tool.toolName, tool.counts])).toEqual([
    ['helpdesk', 'closeTicket', { approved: 1, edited: 0, rejected: 1, expired: 0, cancelled: 1 }],
    ['helpdesk', 'refundPayment', { approved: 1, edited: 1, rejected: 0, expired: 0, cancelled: 0 }],
    ['ledger', 'expiringEffect', { approved: 0, edited: 0, rejected: 0, expired: 1, cancelled: 0 }],
  ]);
  expect(expected.windows[30].tools[0]).toMatchObject({ toolName: 'closeTicket', counts: { approved: 2 }, total: 4 });
  // Four decisions by a person in the week, five in the month: the one ten days ago took 90 s, the longest.
  expect(expected.windows[30].p95Ms).toBe(90_000);

  await expectFigures(studio, expected, 7);
  await expectLongestWaits(studio, expected, at);
  await snapWhole(studio, testInfo, 'metrics-7-days');
  await studio.getByTestId('metrics-window-30').click();
  await expect(studio.getByTestId('metrics-window-30')).toHaveAttribute('aria-checked', 'true');
  await expectFigures(studio, expected, 30);
  await snapWhole(studio, testInfo, 'metrics-30-days');

  // A long wait links to its chat, where it is decided.
  await studio.getByTestId('slowest-approval').first().getByTestId('slowest-chat-link').click();
  await expect(studio.getByTestId('approval-card')).toHaveAttribute('data-interrupt-id', waitingClosure);
  for (const list of problems) expect(list, list.join('\n')).toEqual([]);
  await context.close();

  // The same figures at a glance on a desktop and a phone, in light and in dark.
  for (const width of [1280, 375])
    for (const colorScheme of ['light', 'dark'] as const) {
      const screen = await openMetrics(browser, { width, colorScheme });
      await expect(screen.page.getByTestId('metric-median-value')).toHaveAttribute('data-value', String(expected.windows[7].medianMs));
      await expect(screen.page.getByTestId('tool-outcomes')).toHaveCount(expected.windows[7].tools.length);
      await snapWhole(screen.page, testInfo, `metrics-${width}-${colorScheme}`);
      expect(await screen.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      expect(await seriousViolations(screen.page)).toEqual([]);
      expect(screen.problems, screen.problems.join('\n')).toEqual([]);
      await screen.context.close();
    }
});
