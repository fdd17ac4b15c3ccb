// The chat as a newcomer meets it (issue "a chat that looks and reads like a product"): each
// test is one thing a person would notice — the approval card in view, no raw JSON, the
// decision left in the transcript, true statuses, the header saying what the agent waits
// for, the phone drawer, focus kept in the card.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { collectConsoleProblems, send, snap, THREAD_URL, waitForHydration, waitForIdle } from './helpers';

/** Is the element wholly inside the browser's viewport, as it stands (no scrolling done by the test)? */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.x >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width;
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 800 },
]) {
  test(`the approval card's Approve button is on screen without scrolling after a second turn (${viewport.width} px)`, async ({ browser }, testInfo) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems = collectConsoleProblems(page);
    await page.goto('/agents/helpdesk');
    await waitForHydration(page);
    await send(page, 'look up order po_42');
    await waitForIdle(page);
    await send(page, 'refund order po_42 for 19.99');
    const card = page.getByTestId('approval-card');
    await expect(card).toBeVisible();
    await waitForIdle(page);
    // The card came into view and took focus by itself.
    await expect.poll(() => inViewport(page, card.getByTestId('approve-button'))).toBe(true);
    await expect(card).toBeFocused();
    // The header says what the agent is waiting for.
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-phase', 'approval');
    await expect(page.getByTestId('run-status')).toHaveText('Waiting for approval');
    await snap(page, testInfo, `a1-card-in-view-${viewport.width}`);
    expect(problems, problems.join('\n')).toEqual([]);
    await context.close();
  });
}

test('no raw JSON is shown in the transcript by default; a tool call opens to its details', async ({ page }, testInfo) => {
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'look up order po_42');
  await waitForIdle(page);
  const call = page.getByTestId('tool-call');
  await expect(call.getByTestId('tool-call-status')).toHaveText('Done');
  await expect(call.getByTestId('tool-call-gist')).toHaveText('po_42');
  await expect(call.getByTestId('tool-result')).toBeHidden();
  const visibleText = await page.getByTestId('message-list').innerText();
  expect(visibleText).not.toMatch(/\{\s*"/);
  await snap(page, testInfo, 'a2-collapsed');
  // A screen reader hears the finished reply once, whole — the list itself is not a live region.
  await expect(page.getByTestId('message-list')).not.toHaveAttribute('aria-live');
  await expect(page.getByTestId('announcer')).toHaveText(/^Helpdesk: Order po_42/);
  await call.getByTestId('tool-call-toggle').click();
  await expect(call.getByTestId('tool-result')).toBeVisible();
  await expect(call.getByTestId('tool-result')).toContainText('"customer": "Ada Lovelace"');
  await snap(page, testInfo, 'a3-expanded');
});

test('an approval with edits leaves a decision line and the edited amount on the call, also after a reload', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'refund order po_42 for 19.99');
  const card = page.getByTestId('approval-card');
  await expect(card.getByTestId('approval-field-amount')).toHaveText('$19.99');
  await card.getByTestId('edit-button').click();
  await card.getByTestId('edit-field-amount').fill('15');
  await card.getByTestId('approve-edited-button').click();
  // Once decided, nothing says the agent still waits for a decision.
  await expect(page.getByTestId('run-status')).not.toHaveAttribute('data-phase', 'approval');
  await waitForIdle(page);
  await expect(card).toHaveCount(0);

  const call = page.getByTestId('tool-call');
  const check = async () => {
    await expect(call).toHaveAttribute('data-status', 'done');
    await expect(call.getByTestId('decision-line')).toContainText('Approved with edits');
    await expect(call.getByTestId('decision-line')).toContainText('$19.99 → $15.00');
    await expect(call.getByTestId('decision-line')).toContainText('you');
    await expect(call.getByTestId('tool-call-gist')).toContainText('$15.00');
    await expect(call.getByTestId('tool-call-gist')).not.toContainText('19.99');
  };
  await check();
  await snap(page, testInfo, 'a4-decision-line');
  await page.reload();
  await waitForHydration(page);
  await check();
  await snap(page, testInfo, 'a5-decision-line-reloaded');
  expect(problems, problems.join('\n')).toEqual([]);
});

test('a rejected call shows Rejected with the reason, also after a reload', async ({ page }, testInfo) => {
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'close ticket T-7');
  const card = page.getByTestId('approval-card');
  await card.getByTestId('reject-button').click();
  await card.getByTestId('reject-reason').fill('not yet');
  await card.getByTestId('confirm-reject-button').click();
  await waitForIdle(page);
  const call = page.getByTestId('tool-call');
  for (const reloaded of [false, true]) {
    if (reloaded) {
      await page.reload();
      await waitForHydration(page);
    }
    await expect(call).toHaveAttribute('data-status', 'rejected');
    await expect(call.getByTestId('tool-call-status')).toHaveText('Rejected');
    await expect(call.getByTestId('decision-line')).toContainText('Rejected: “not yet”');
  }
  await snap(page, testInfo, 'a6-rejected');
});

test('focus stays in the card through Reject and Escape, and Escape backs out of reject mode', async ({ page }) => {
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'close ticket T-7');
  const card = page.getByTestId('approval-card');
  await waitForIdle(page);
  await card.getByTestId('reject-button').click();
  await expect(card.getByTestId('reject-reason')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(card.getByTestId('reject-reason')).toHaveCount(0);
  await expect(card.getByTestId('reject-button')).toBeFocused();
  await card.getByTestId('reject-button').click();
  await card.getByTestId('back-button').click();
  await expect(card.getByTestId('reject-button')).toBeFocused();
  // Withdraw, so no pause is left behind.
  await card.getByTestId('cancel-interrupt-button').click();
  await waitForIdle(page);
  await expect(page.getByTestId('tool-call')).toHaveAttribute('data-status', 'withdrawn');
});

test('on a phone the drawer lists conversations and starts a new chat', async ({ browser }, testInfo) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'look up order po_42');
  await waitForIdle(page);
  await expect(page.getByTestId('thread-sidebar')).toBeHidden();
  // The composer stays on screen.
  expect(await inViewport(page, page.getByTestId('composer-input'))).toBe(true);
  await page.getByTestId('drawer-button').click();
  const drawer = page.getByTestId('thread-drawer');
  await expect(drawer.getByTestId('sidebar-thread').first()).toContainText('look up order po_42');
  await snap(page, testInfo, 'a7-drawer');
  await drawer.getByTestId('new-chat').click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/agents\/helpdesk$/);
  await expect(page.getByTestId('suggestions')).toBeVisible();
  await expect(page.getByTestId('message-user')).toHaveCount(0);
  await context.close();
});

test('Stop marks the reply it cut as Stopped; steering shows as pending guidance until the turn takes it', async ({ page }, testInfo) => {
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'slowly reply with 200 tokens');
  await expect(page.getByTestId('message-assistant')).toContainText('token3');
  await page.getByTestId('composer-input').fill('keep it short');
  await page.getByTestId('steer-button').click();
  // Shown at once as guidance the turn has not taken in yet (it takes it at its next step).
  await expect(page.getByTestId('pending-steer')).toContainText('keep it short');
  await expect(page.getByTestId('message-user')).toHaveCount(1);
  await page.getByTestId('stop-button').click();
  await waitForIdle(page);
  await expect(page.getByTestId('message-stopped')).toBeVisible();
  await expect(page.getByTestId('message-assistant').first()).toHaveAttribute('data-stopped', 'true');
  // A stopped turn drops the guidance it had not taken (docs/turn-control.md, "Steer").
  await expect(page.getByTestId('pending-steer')).toHaveCount(0);
  await snap(page, testInfo, 'a8-stopped');
});

test('a failure shows on its message with Retry; a retry that fails again says so', async ({ page }, testInfo) => {
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'fail after 5 words');
  const error = page.getByTestId('message-list').getByTestId('run-error');
  await expect(error).toContainText('This reply failed');
  await page.getByTestId('retry-button').click();
  await expect(error).toContainText('Failed again (tried 2 times)');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-phase', 'failed');
  await snap(page, testInfo, 'a9-failed-again');
});

test('the model picker: a model picked by keyboard answers the next message, and a reload shows it still picked', async ({ page }) => {
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  const picker = page.getByTestId('model-picker');
  await expect(picker).toHaveAccessibleName('Model');
  await expect(picker).toContainText('GPT-4o mini');
  await picker.focus();
  await page.keyboard.press('Enter');
  // As a keyboard user sees it: the list opens with focus on the current model, the arrow moves it.
  await expect(page.getByRole('option', { name: /GPT-4o mini/ })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('option', { name: /Claude Sonnet 4\.6/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(picker).toContainText('Claude Sonnet 4.6');
  // No keys in the tests: the scripted model stands in, and says which model it was asked as (e2e/offline-models.spec.ts).
  await send(page, 'which model');
  await waitForIdle(page);
  await expect(page.getByTestId('message-list')).toContainText('standing in for anthropic/claude-sonnet-4-6.');
  await expect(page).toHaveURL(THREAD_URL('helpdesk'));
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('model-picker')).toContainText('Claude Sonnet 4.6');
});
