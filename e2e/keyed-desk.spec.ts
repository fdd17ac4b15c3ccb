// A public chat with a desk (docs/security.md, "Approvers"; docs/users-and-roles.md, "Roles"): on a
// keyed server open to browsers, a customer asks for a refund and cannot approve it; the desk — an
// admin by STACKBONE_ADMIN_EMAILS — opens Studio, is asked to sign in to its account, sees the
// customer's refund and approves it, and the customer's chat goes on by itself.
import { expect, test } from '@playwright/test';
import { accountCookie, accountFormReady, collectConsoleProblems, DESK_EMAIL, KEYED_URL, PASSWORD, send, snap, waitForHydration, waitForIdle } from './helpers';

test("a customer's refund waits for the desk; the desk signs in to its account and approves it in Studio", async ({ browser }, testInfo) => {
  await accountCookie(DESK_EMAIL);
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
  await expect(card.getByTestId('approval-key-holders')).toContainText('Someone on the team approves or rejects this');
  await expect(card.getByTestId('approve-button')).toHaveCount(0);
  await expect(card.getByTestId('cancel-interrupt-button')).toBeEnabled();
  await expect(customer.getByTestId('interrupt-progress')).toContainText('Waiting for someone on the team to decide.');
  const threadId = customer.url().split('/').at(-1)!;
  await snap(customer, testInfo, '90-customer-waits-for-desk');

  // The desk: Studio asks it to sign in, and brings it back once it has.
  await desk.goto(`${KEYED_URL}/studio`);
  await snap(desk, testInfo, '90b-studio-asks-to-sign-in');
  await desk.getByTestId('studio-sign-in-link').click();
  await desk.waitForURL(`${KEYED_URL}/sign-in?next=%2Fstudio`);
  await accountFormReady(desk);
  await desk.getByTestId('account-email').fill(DESK_EMAIL);
  await desk.getByTestId('account-password').fill('not the password');
  await desk.getByRole('button', { name: 'Sign in', exact: true }).first().click();
  await expect(desk.getByTestId('account-error')).toContainText('Invalid email or password');
  await desk.getByTestId('account-password').fill(PASSWORD);
  await desk.getByRole('button', { name: 'Sign in', exact: true }).first().click();
  await desk.waitForURL(`${KEYED_URL}/studio`);
  await expect(desk.getByTestId('keyed-marker')).toHaveText('Signed in');
  await expect(desk.getByTestId('account-signed-in')).toContainText(DESK_EMAIL);
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
