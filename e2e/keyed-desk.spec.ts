// A public chat with a desk that holds the key (docs/security.md, "Approvers"): on a keyed server
// open to browsers, a customer asks for a refund and cannot approve it; the desk signs in to
// Studio with the API key once, sees the customer's refund and approves it, and the customer's
// chat goes on by itself.
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, KEYED_API_KEY, KEYED_URL, send, snap, waitForHydration, waitForIdle } from './helpers';

test("a customer's refund waits for the desk; the desk signs in with its key and approves it in Studio", async ({ browser }, testInfo) => {
  const customerContext = await browser.newContext();
  const deskContext = await browser.newContext();
  const customer = await customerContext.newPage();
  const desk = await deskContext.newPage();
  const customerProblems = collectConsoleProblems(customer);

  await customer.goto(`${KEYED_URL}/agents/helpdesk`);
  await expect(customer.getByTestId('keyed-marker')).toHaveText('Guest');
  await waitForHydration(customer);
  // The header's one indicator explains itself on click.
  await customer.getByTestId('mode-indicator').click();
  await expect(customer.getByTestId('mode-details')).toContainText('this browser sees only the conversations it starts');
  await customer.keyboard.press('Escape');
  await send(customer, 'refund order po_42 for 19.99');
  const card = customer.getByTestId('approval-card');
  await expect(card).toHaveAttribute('data-tool-name', 'refundPayment');
  // No approve button for the customer: the desk decides; withdrawing stays possible.
  await expect(card.getByTestId('approval-key-holders')).toContainText('Someone with an API key approves or rejects this');
  await expect(card.getByTestId('approve-button')).toHaveCount(0);
  await expect(card.getByTestId('cancel-interrupt-button')).toBeEnabled();
  await expect(customer.getByTestId('interrupt-progress')).toContainText('Waiting for someone with an API key to decide.');
  const threadId = customer.url().split('/').at(-1)!;
  await snap(customer, testInfo, '90-customer-waits-for-desk');

  // The desk: Studio asks for the key once, then shows the customer's refund.
  await desk.goto(`${KEYED_URL}/studio`);
  await desk.getByTestId('sign-in-key').fill('not-the-key');
  await desk.getByRole('button', { name: 'Sign in' }).click();
  await expect(desk.getByTestId('sign-in-error')).toHaveText('The API key is not valid.');
  await desk.getByTestId('sign-in-key').fill(KEYED_API_KEY);
  await desk.getByRole('button', { name: 'Sign in' }).click();
  await expect(desk.getByTestId('keyed-marker')).toHaveText('Signed in');
  await expect(desk.getByTestId('sign-out')).toBeVisible();
  const refund = desk.locator(`[data-testid="inbox-item"][data-session-id="${threadId}"]`);
  await expect(refund.getByTestId('approval-message')).toHaveText('Refund $19.99 on order po_42');
  // The conversation is the customer's: the desk decides the call but has no chat or trail of it to open.
  await expect(refund.getByTestId('inbox-foreign')).toHaveText("In a customer's conversation");
  await expect(refund.getByTestId('inbox-chat-link')).toHaveCount(0);
  await snap(desk, testInfo, '91-desk-studio-inbox');
  await refund.getByTestId('approve-button').click();
  await expect(refund).toHaveCount(0);

  // The customer's open chat carries on with the desk's decision, live.
  await expect(customer.getByTestId('approval-card')).toHaveCount(0);
  await expect(customer.getByTestId('message-assistant').last()).toContainText('Refunded $19.99 on order po_42');
  await waitForIdle(customer);
  await snap(customer, testInfo, '92-customer-refunded');
  expect(customerProblems).toEqual([]);
  await Promise.all([customerContext.close(), deskContext.close()]);
});
