// Human in the loop in the web app: approval cards next to their tool calls, restored after a
// reload, edited and approved with approval data, rejected with a reason, decided as a batch
// (submitted once, when the last card is decided), and a question answered through a form
// generated from the tool's schema (an MCP server's: examples/demo/e2e/mcp.spec.ts).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { collectConsoleProblems, send, snap, THREAD_URL, waitForHydration, waitForIdle } from './helpers';

/** The cards' buttons are disabled until hydration, like the composer (which is locked here). */
async function waitForCards(page: Page) {
  await expect(page.getByTestId('approval-card').first().locator('button').first()).toBeEnabled();
}

/** Counts the runs the page posts, to show a staged batch does not submit early. */
function countRuns(page: Page, agent: string) {
  const runs = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(`/api/agents/${agent}`)) runs.count++;
  });
  return runs;
}

test('helpdesk: edit and approve a refund after a reload, reject a ticket closure with a reason', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);

  await send(page, 'refund order po_42 for 19.99');
  const card = page.getByTestId('approval-card');
  await expect(card.getByTestId('approval-message')).toHaveText('Refund $19.99 on order po_42');
  await expect(card).toHaveAttribute('data-tool-name', 'refundPayment');
  await expect(card.getByTestId('approval-args')).toContainText('"amount": 19.99');
  await expect(card.getByTestId('approval-expiry')).toBeVisible();
  await expect(page.getByTestId('tool-call')).toHaveAttribute('data-status', 'approval');
  await expect(page.getByTestId('composer-input')).toHaveAttribute('data-waiting', 'true');
  await expect(page).toHaveURL(THREAD_URL('helpdesk'));
  await snap(page, testInfo, '11-refund-approval');

  // The pending approval is part of the server's first paint, and answerable after it.
  const html = await (await page.request.get(page.url())).text();
  expect(html).toContain('Refund $19.99 on order po_42');
  await page.reload();
  await waitForCards(page);
  await expect(card.getByTestId('approval-message')).toHaveText('Refund $19.99 on order po_42');
  await expect(page.getByTestId('composer-input')).toHaveAttribute('data-waiting', 'true');
  await snap(page, testInfo, '12-refund-restored');

  await card.getByTestId('edit-button').click();
  await expect(card.getByTestId('edit-field-amount')).toHaveValue('19.99');
  await card.getByTestId('edit-field-amount').fill('5');
  await card.getByTestId('payload-field-note').fill('Partial refund: item kept');
  await snap(page, testInfo, '13-refund-edited');
  await card.getByTestId('approve-edited-button').click();

  const result = page.getByTestId('tool-call').getByTestId('tool-result');
  await expect(result).toContainText('"amount": 5');
  await expect(result).toContainText('Partial refund: item kept');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Refunded $5.00 on order po_42');
  await waitForIdle(page);
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId('composer-input')).toBeEnabled();
  await snap(page, testInfo, '14-refund-done');

  await send(page, 'close ticket T-7');
  await expect(card).toHaveAttribute('data-tool-name', 'closeTicket');
  await expect(card.getByTestId('edit-button')).toHaveCount(0);
  await card.getByTestId('reject-button').click();
  await card.getByTestId('reject-reason').fill('The customer is still waiting on a reply');
  await card.getByTestId('confirm-reject-button').click();
  await expect(page.getByTestId('message-assistant').last()).toContainText("I didn't close ticket: you declined it");
  await expect(page.getByTestId('message-assistant').last()).toContainText('The customer is still waiting on a reply');
  await waitForIdle(page);
  await expect(card).toHaveCount(0);
  await snap(page, testInfo, '15-close-rejected');

  expect(problems, problems.join('\n')).toEqual([]);
});

test('helpdesk: a batch of two is sent once, when its last card is decided', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  const runs = countRuns(page, 'helpdesk');
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);

  await send(page, 'refund order po_1 for 5 and close ticket T-2');
  const cards = page.getByTestId('approval-card');
  await expect(cards).toHaveCount(2);
  await waitForIdle(page);
  await expect(page.getByTestId('interrupt-progress')).toContainText('0 of 2 decided');
  await expect(cards.nth(0).getByTestId('approval-batch-position')).toHaveText('1 of 2');
  expect(runs.count).toBe(1);

  await cards.nth(0).getByTestId('approve-button').click();
  await expect(cards.nth(0)).toHaveAttribute('data-state', 'staged');
  await expect(page.getByTestId('interrupt-progress')).toContainText('1 of 2 decided');
  await snap(page, testInfo, '16-batch-one-staged');
  // Staged, not sent: nothing ran yet.
  expect(runs.count).toBe(1);
  await expect(page.getByTestId('tool-result')).toHaveCount(0);

  await cards.nth(1).getByTestId('approve-button').click();
  await expect(page.getByTestId('tool-result')).toHaveCount(2);
  await waitForIdle(page);
  expect(runs.count).toBe(2);
  await expect(cards).toHaveCount(0);
  await expect(page.getByTestId('message-assistant').last()).toContainText('Closed ticket T-2.');
  await snap(page, testInfo, '17-batch-done');

  expect(problems, problems.join('\n')).toEqual([]);
});

test('taskboard: a question is answered through a form generated from its schema', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/taskboard');
  await waitForHydration(page);

  await send(page, 'ask me for a launch name');
  const card = page.getByTestId('approval-card');
  await expect(card).toHaveAttribute('data-reason', 'input_required');
  await waitForIdle(page);
  await expect(page.getByTestId('composer-input')).toHaveAttribute('data-waiting', 'true');
  await snap(page, testInfo, '18-question');

  await card.getByTestId('answer-field-answer').fill('Project Aurora');
  await card.getByTestId('answer-button').click();
  await expect(page.getByTestId('tool-call').getByTestId('tool-result')).toContainText('Project Aurora');
  await waitForIdle(page);
  await expect(card).toHaveCount(0);
  await snap(page, testInfo, '19-question-answered');

  expect(problems, problems.join('\n')).toEqual([]);
});

test('taskboard: a question is declined with a reason, and the agent is told', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/taskboard');
  await waitForHydration(page);

  await send(page, 'ask me for a launch name');
  const card = page.getByTestId('approval-card');
  await expect(card).toHaveAttribute('data-reason', 'input_required');
  await waitForIdle(page);
  await card.getByTestId('decline-button').click();
  await card.getByTestId('decline-reason').fill('Marketing picks the name');
  await snap(page, testInfo, '19-question-declining');
  await card.getByTestId('confirm-decline-button').click();
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId('tool-call').getByTestId('tool-result')).toContainText('declined to answer');
  await expect(page.getByTestId('tool-call').getByTestId('tool-result')).toContainText('Marketing picks the name');
  await waitForIdle(page);
  await expect(page.getByTestId('composer-input')).not.toHaveAttribute('data-waiting');
  await snap(page, testInfo, '20-question-declined');

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('approval-card')).toHaveCount(0);
  await expect(page.getByTestId('tool-call').getByTestId('tool-result')).toContainText('declined to answer');
  expect(problems, problems.join('\n')).toEqual([]);
});

test('helpdesk: a refund over $100 takes two approvers, the chat and the emailed link, and Studio shows the vote and the email without its links', async ({
  page,
}, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'refund order po_1 for 129');
  await waitForCards(page);
  await expect(page).toHaveURL(THREAD_URL('helpdesk'));
  const thread = page.url();
  await page.getByTestId('approve-button').click();
  // One vote of two: the request stays open (docs/approvals.md, "Quorum and separation of duties").
  await expect(page.getByTestId('interrupt-votes')).toHaveText(/1 of 2 approvals: you/);
  await expect(page.getByTestId('approval-card')).toBeVisible();
  await snap(page, testInfo, 'quorum-one-vote');

  // Studio: the vote on the pending request, and the email to the refunds desk, not sent for lack
  // of SMTP: its subject and where this machine's mailbox holds it, never its links
  // (docs/approvals.md, "A link counts as a person").
  await page.goto('/studio');
  const request = page.getByTestId('inbox-item').filter({ hasText: '$129.00' });
  await expect(request.getByTestId('interrupt-votes')).toHaveText(/1 of 2 approvals/);
  const email = page.getByTestId('delivery-row').filter({ hasText: 'refunds@example.com' }).filter({ hasText: '$129.00' });
  await expect(email).toHaveAttribute('data-status', 'delivered', { timeout: 15_000 });
  await expect(email.getByTestId('kept-email')).toHaveAttribute('data-decides', 'true');
  expect(await email.locator('a[href*="/approve/"]').count()).toBe(0);
  await snap(page, testInfo, 'studio-vote-and-email');
  // The desk reads its mail: open dev mode's mailbox, the .html of the message Studio names.
  const file = (await email.getByTestId('kept-email-file').locator('code').textContent())!;
  const html = await readFile(path.resolve(file.replace(/\.eml$/, '.html')), 'utf8');
  const link = /href="([^"]*\/approve\/[^"]+)"/.exec(html)![1]!;

  // The link's page decides nothing by being opened; its button is the second vote.
  await page.goto(link!);
  await expect(page.getByTestId('link-message')).toHaveText(/Refund \$129\.00 on order po_1/);
  await expect(page.getByTestId('link-decided')).toHaveCount(0);
  await snap(page, testInfo, 'link-confirmation');
  await page.getByTestId('link-submit').click();
  await expect(page.getByTestId('link-decided')).toHaveAttribute('data-status', 'approved');

  // The refund ran once, and the chat shows it.
  await page.goto(thread);
  await expect(page.getByTestId('message-assistant').last()).toContainText('Refunded $129.00 on order po_1');
  await expect(page.getByTestId('tool-call').last().getByTestId('decision-votes')).toHaveText('2 approvals: you, one by an emailed or Slack link');
  await expect(page.getByTestId('approval-card')).toHaveCount(0);
  expect(problems).toEqual([]);
});
