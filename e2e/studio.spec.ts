// Studio (docs/studio.md): the inbox of decisions across sessions, live, and a session's audit
// trail. A decision made in Studio — approve, reject with a reason, edit — shows at once in the
// chat that is open on the thread, which goes on; the audit trail says who decided, from where.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, send, snap, THREAD_URL, waitForHydration, waitForIdle } from './helpers';

test('Studio approves with edits, rejects with a reason and approves, each live in the open chat; the audit trail shows them', async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext();
  const chat = await context.newPage();
  const studio = await context.newPage();
  const chatProblems = collectConsoleProblems(chat);
  const studioProblems = collectConsoleProblems(studio);

  await chat.goto('/agents/helpdesk');
  await waitForHydration(chat);
  await send(chat, 'refund order po_42 for 19.99');
  await expect(chat.getByTestId('approval-card')).toHaveAttribute('data-tool-name', 'refundPayment');
  await expect(chat).toHaveURL(THREAD_URL('helpdesk'));
  const threadId = chat.url().split('/').at(-1)!;

  // A link to one decision (an MCP client is given one, docs/mcp.md) opens the inbox with it marked.
  const interruptId = await chat.getByTestId('approval-card').getAttribute('data-interrupt-id');
  await studio.goto(`/studio?decision=${interruptId}`);
  // Other tests' threads may wait in the same inbox: this thread's items only.
  const items = studio.locator(`[data-testid="inbox-item"][data-session-id="${threadId}"]`);
  const refund = items.filter({ has: studio.locator('[data-tool-name="refundPayment"]') }).first();
  await expect(refund.getByTestId('approval-message')).toHaveText('Refund $19.99 on order po_42');
  await expect(refund).toHaveAttribute('data-focused', 'true');
  await expect(studio.locator('[data-testid="inbox-item"][data-focused]')).toHaveCount(1);
  await expect(refund.getByTestId('approval-args')).toContainText('"amount": 19.99');
  await expect(refund.getByTestId('inbox-countdown')).toContainText('left');
  await snap(studio, testInfo, '80-studio-inbox');

  // Edit: the amount goes down to 5; the chat shows the edited call's result and goes on.
  await refund.getByTestId('edit-button').click();
  await refund.getByTestId('edit-field-amount').fill('5');
  await refund.getByTestId('approve-edited-button').click();
  await expect(refund).toHaveCount(0);
  await expect(chat.getByTestId('approval-card')).toHaveCount(0);
  await expect(chat.getByTestId('tool-call').getByTestId('tool-result')).toContainText('"amount": 5');
  await expect(chat.getByTestId('message-assistant').last()).toContainText('Refunded $5.00 on order po_42');
  await waitForIdle(chat);
  await snap(chat, testInfo, '81-chat-after-studio-edit');

  // A new pause appears in the open inbox by itself; a rejection with a reason reaches the chat.
  await send(chat, 'close ticket T-7');
  const close = items.filter({ has: studio.locator('[data-tool-name="closeTicket"]') }).first();
  await expect(close).toBeVisible();
  await close.getByTestId('reject-button').click();
  await close.getByTestId('reject-reason').fill('The customer is still waiting on a reply');
  await snap(studio, testInfo, '82-studio-reject');
  await close.getByTestId('confirm-reject-button').click();
  await expect(close).toHaveCount(0);
  await expect(chat.getByTestId('message-assistant').last()).toContainText('The customer is still waiting on a reply');
  await waitForIdle(chat);

  await send(chat, 'close ticket T-8');
  const second = items.filter({ has: studio.locator('[data-tool-name="closeTicket"]') }).first();
  await expect(second.getByTestId('approval-message')).toBeVisible();
  await second.getByTestId('approve-button').click();
  await expect(chat.getByTestId('message-assistant').last()).toContainText('Closed ticket T-8.');
  await waitForIdle(chat);
  await expect(items).toHaveCount(0);

  // The audit trail, reached from the chat: every decision with its source.
  await chat.getByTestId('chat-audit-link').click();
  await expect(chat).toHaveURL(new RegExp(`/studio/sessions/${threadId}$`));
  const decisions = chat.locator('[data-testid="audit-entry"][data-kind="decision"]');
  await expect(decisions).toHaveCount(3);
  await expect(decisions.nth(0)).toContainText('Approved with edits “Refund an order”');
  await expect(decisions.nth(0).getByTestId('audit-actor')).toHaveText('by you (this computer) · from Studio');
  await expect(decisions.nth(1)).toContainText('Rejected “Close a ticket”: “The customer is still waiting on a reply”');
  await expect(decisions.nth(2)).toContainText('Approved “Close a ticket”');
  await decisions.nth(0).locator('summary').click();
  await expect(decisions.nth(0)).toContainText('"editedArguments"');
  await snap(chat, testInfo, '83-audit-trail');

  const [download] = await Promise.all([chat.waitForEvent('download'), chat.getByTestId('audit-export').click()]);
  const exported = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
    session: { id: string };
    entries: { kind: string; actor?: { source: string } }[];
  };
  expect(exported.session.id).toBe(threadId);
  expect(exported.entries.filter((entry) => entry.kind === 'decision').map((entry) => entry.actor?.source)).toEqual(['studio', 'studio', 'studio']);

  // And back: the audit trail links to its chat.
  await chat.getByTestId('audit-chat-link').click();
  await expect(chat).toHaveURL(new RegExp(`/agents/helpdesk/${threadId}$`));
  await waitForHydration(chat);
  expect(chatProblems, chatProblems.join('\n')).toEqual([]);
  expect(studioProblems, studioProblems.join('\n')).toEqual([]);
  await context.close();
});

test('a question is answered in Studio, and the next one declined there; the chat goes on with each', async ({ browser }, testInfo) => {
  const context = await browser.newContext();
  const chat = await context.newPage();
  const studio = await context.newPage();
  const problems = [...[chat, studio].map(collectConsoleProblems)];

  await chat.goto('/agents/taskboard');
  await waitForHydration(chat);
  await send(chat, 'ask me for a launch name');
  await expect(chat.getByTestId('approval-card')).toHaveAttribute('data-reason', 'input_required');
  await expect(chat).toHaveURL(THREAD_URL('taskboard'));
  const threadId = chat.url().split('/').at(-1)!;
  // The history rail lists the new thread without a reload.
  await expect(chat.getByTestId('sidebar-thread').first()).toContainText('ask me for a launch name');

  await studio.goto('/studio');
  await studio.getByTestId('inbox-kind-filter').selectOption('input_required');
  const question = studio.locator(`[data-testid="inbox-item"][data-session-id="${threadId}"]`);
  await question.getByTestId('answer-field-answer').fill('Project Aurora');
  await question.getByTestId('answer-button').click();
  await expect(question).toHaveCount(0);
  await expect(chat.getByTestId('tool-call').getByTestId('tool-result')).toContainText('Project Aurora');
  await waitForIdle(chat);

  await send(chat, 'ask me for a tagline');
  await expect(question).toBeVisible();
  await question.getByTestId('decline-button').click();
  await question.getByTestId('decline-reason').fill('Copywriting owns taglines');
  await snap(studio, testInfo, '84-studio-decline');
  await question.getByTestId('confirm-decline-button').click();
  await expect(question).toHaveCount(0);
  await expect(chat.getByTestId('tool-call').last().getByTestId('tool-result')).toContainText('declined to answer');
  await expect(chat.getByTestId('tool-call').last().getByTestId('tool-result')).toContainText('Copywriting owns taglines');
  await waitForIdle(chat);
  await snap(chat, testInfo, '85-chat-after-studio-decline');
  for (const list of problems) expect(list, list.join('\n')).toEqual([]);
  await context.close();
});
