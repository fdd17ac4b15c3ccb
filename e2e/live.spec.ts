// Every tab is live: what happens on a thread from anywhere shows in an open chat as it
// happens — a decision made with the CLI and the turn it continues, another tab's turn, an
// approval raised in one tab and decided in another, a timer firing on the server. The chat listens to the thread's
// session stream (docs/internals/architecture.md, "Streams and cursors").
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { collectConsoleProblems, send, snap, THREAD_URL, waitForHydration, waitForIdle } from './helpers';

const run = promisify(execFile);

/** The CLI as a person runs it beside the open browser: `npx stackbone hitl approve <id> --yes`. */
async function stackbone(baseURL: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, ['bin/stackbone.mjs', ...args], { env: { ...process.env, STACKBONE_URL: baseURL, STACKBONE_API_KEY: '' } });
  return stdout;
}

const assistantTexts = (page: Page) => page.getByTestId('message-assistant').allInnerTexts();

test('a decision made with the CLI shows in the open chat at once, and its continuation streams there', async ({ page, baseURL }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'close ticket T-7');
  const card = page.getByTestId('approval-card');
  await expect(card).toHaveAttribute('data-tool-name', 'closeTicket');
  await expect(page).toHaveURL(THREAD_URL('helpdesk'));
  const interruptId = (await card.getAttribute('data-interrupt-id'))!;
  await snap(page, testInfo, '30-waiting-on-a-decision');

  const listed = JSON.parse(await stackbone(baseURL!, 'hitl', 'list', '--json')) as { interrupts: { id: string }[] };
  expect(listed.interrupts.map((pending) => pending.id)).toContain(interruptId);
  await stackbone(baseURL!, 'hitl', 'approve', interruptId, '--yes');
  const decidedAt = Date.now();
  // Within a second of the CLI's answer, the card is gone from the tab nobody touched.
  await expect(card).toHaveCount(0, { timeout: 1_000 });
  testInfo.annotations.push({ type: 'cli decision → card gone', description: `${Date.now() - decidedAt} ms` });
  await expect(page.getByTestId('tool-call').getByTestId('tool-result')).toContainText('"closed": true');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Closed ticket T-7.');
  await waitForIdle(page);
  await expect(page.getByTestId('composer-input')).toBeEnabled();
  await snap(page, testInfo, '31-decided-with-the-cli');

  // The tab goes on as if it had decided itself.
  await send(page, 'thanks');
  await waitForIdle(page);
  await expect(page.getByTestId('message-assistant').last()).toContainText('thanks');
  expect(problems, problems.join('\n')).toEqual([]);
});

test("a second tab shows the first tab's turn live, and an approval raised in one is decided in the other", async ({ browser }, testInfo) => {
  const context = await browser.newContext();
  const first = await context.newPage();
  const second = await context.newPage();
  const firstProblems = collectConsoleProblems(first);
  const secondProblems = collectConsoleProblems(second);

  await first.goto('/agents/helpdesk');
  await waitForHydration(first);
  await send(first, 'look up order po_42');
  await waitForIdle(first);
  await expect(first).toHaveURL(THREAD_URL('helpdesk'));
  await second.goto(first.url());
  await waitForHydration(second);
  await expect(second.getByTestId('tool-result')).toContainText('Ada Lovelace');

  // A turn typed in the first tab streams in the second while it runs (6 s, so it still runs
  // when the second tab is asked, however busy the machine).
  await send(first, 'slowly reply with 120 tokens');
  await expect(second.getByTestId('message-user').last()).toHaveText('slowly reply with 120 tokens');
  await expect(second.getByTestId('message-assistant').last()).toContainText('token3');
  await expect(second.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  await snap(second, testInfo, '32-second-tab-streaming');
  await waitForIdle(first);
  await waitForIdle(second);
  await expect(second.getByTestId('message-assistant').last()).toContainText('token120');
  expect(await assistantTexts(second)).toEqual(await assistantTexts(first));

  // An approval the first tab's turn raised is decided in the second; the first follows.
  await send(first, 'close ticket T-7');
  const card = second.getByTestId('approval-card');
  await expect(card).toHaveAttribute('data-tool-name', 'closeTicket');
  await expect(first.getByTestId('approval-card')).toHaveCount(1);
  await expect(card.getByTestId('approve-button')).toBeEnabled();
  await snap(second, testInfo, '33-second-tab-approval');
  await card.getByTestId('approve-button').click();
  await expect(first.getByTestId('approval-card')).toHaveCount(0);
  await expect(first.getByTestId('tool-result').last()).toContainText('"closed": true');
  await waitForIdle(first);
  await waitForIdle(second);
  await expect(first.getByTestId('message-assistant').last()).toContainText('Closed ticket T-7.');
  expect(await assistantTexts(first)).toEqual(await assistantTexts(second));
  await snap(first, testInfo, '34-first-tab-followed');

  expect(firstProblems, firstProblems.join('\n')).toEqual([]);
  expect(secondProblems, secondProblems.join('\n')).toEqual([]);
  await context.close();
});

test('a reminder scheduled in the chat arrives in the open tab when due, and the agent answers it', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'remind me in 2 seconds to check po_42');
  await expect(page.getByTestId('tool-call')).toHaveAttribute('data-tool-name', 'remindMe');
  await expect(page.getByTestId('tool-result')).toContainText('"scheduled": true');
  await waitForIdle(page);
  await expect(page.getByTestId('message-user')).toHaveCount(1);
  await snap(page, testInfo, '35-reminder-scheduled');

  // Nobody types: the timer fires on the server and the tab shows its turn.
  await expect(page.getByTestId('message-user').last()).toHaveText('Reminder: check po_42', { timeout: 10_000 });
  await waitForIdle(page);
  await expect(page.getByTestId('message-assistant').last()).toContainText('Reminder: check po_42');
  await snap(page, testInfo, '36-reminder-arrived');

  // It arrived once, and stays after a reload.
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('message-user')).toHaveText(['remind me in 2 seconds to check po_42', 'Reminder: check po_42']);
  expect(problems, problems.join('\n')).toEqual([]);
});
