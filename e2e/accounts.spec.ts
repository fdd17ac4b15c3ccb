// People, not keys (docs/users-and-roles.md), in a browser, on the public chat of a keyed server
// whose STACKBONE_ROLES names alice and bob finance: a guest asks for a $150 refund that two
// people with the finance role decide; alice and bob sign in with email and password and approve
// it in Studio, each as one person (the key alice makes in Studio → Team votes as her, so it is
// refused); the guest's chat goes on by itself; the guest signs up and the thread, with its
// result, is still theirs.
import { expect, test, type Page } from '@playwright/test';
import { accountCookie, accountFormReady, collectConsoleProblems, KEYED_URL, PASSWORD, send, signInAs, snap, waitForHydration, waitForIdle } from './helpers';

test('a guest’s $150 refund is approved by two finance people who signed in; the guest signs up and keeps the thread', async ({
  browser,
  request,
}, testInfo) => {
  await Promise.all(['alice@example.test', 'bob@example.test'].map(accountCookie));
  const contexts = await Promise.all([browser.newContext(), browser.newContext(), browser.newContext()]);
  const [guest, alice, bob] = await Promise.all(contexts.map((context) => context.newPage()));
  const guestProblems = collectConsoleProblems(guest!);

  await guest!.goto(`${KEYED_URL}/agents/helpdesk-finance`);
  await waitForHydration(guest!);
  await send(guest!, 'refund order po_150 for 150');
  const card = guest!.getByTestId('approval-card');
  await expect(card).toHaveAttribute('data-tool-name', 'refundPayment');
  await expect(card.getByTestId('approve-button')).toHaveCount(0);
  const threadUrl = guest!.url();
  const threadId = threadUrl.split('/').at(-1)!;
  await snap(guest!, testInfo, '95-guest-refund-waits-for-finance');

  await signInAs(alice!, 'alice@example.test');
  const refundFor = (page: Page) => page.locator(`[data-testid="inbox-item"][data-session-id="${threadId}"]`);
  await expect(refundFor(alice!).getByTestId('approval-message')).toHaveText('Refund $150.00 on order po_150');
  await snap(alice!, testInfo, '96-alice-studio-inbox');
  await refundFor(alice!).getByTestId('approve-button').click();
  await expect(refundFor(alice!).getByTestId('inbox-error')).toHaveCount(0);
  // One person, one vote: the call is still waiting on a second approver.
  await expect(guest!.getByTestId('approval-card')).toHaveCount(1);

  // Alice makes an API key in Studio → Team: shown once, and it is Alice — her vote is in already.
  await alice!.goto(`${KEYED_URL}/studio/team`);
  // Roles are an admin's to give; alice is finance, not admin.
  await expect(alice!.getByTestId('studio-team')).toContainText('Only an admin gives roles');
  await alice!.getByTestId('api-key-name').fill('laptop');
  await alice!.getByRole('button', { name: 'Make a key' }).click();
  const aliceKey = (await alice!.getByTestId('api-key-made').textContent())!;
  expect(aliceKey).toMatch(/^sbk_/);
  await expect(alice!.getByTestId('api-key')).toContainText(['laptop']);
  await snap(alice!, testInfo, '96b-alice-api-key');
  const inbox = (await (await request.get(`${KEYED_URL}/api/hitl`, { headers: { authorization: `Bearer ${aliceKey}` } })).json()) as {
    interrupts: { id: string; sessionId: string }[];
  };
  const interruptId = inbox.interrupts.find((item) => item.sessionId === threadId)!.id;
  const again = await request.post(`${KEYED_URL}/api/hitl/${interruptId}/approve`, { headers: { authorization: `Bearer ${aliceKey}` }, data: {} });
  expect(again.status()).toBe(409);
  expect(await again.json()).toMatchObject({ error: { code: 'already_voted' } });

  await signInAs(bob!, 'bob@example.test');
  await refundFor(bob!).getByTestId('approve-button').click();
  await expect(refundFor(bob!)).toHaveCount(0);

  // The guest's open chat goes on by itself.
  await expect(guest!.getByTestId('approval-card')).toHaveCount(0);
  await expect(guest!.getByTestId('message-assistant').last()).toContainText('Refunded $150.00 on order po_150');
  await waitForIdle(guest!);

  // The guest signs up from the header; the thread is the account's.
  await guest!.getByTestId('sign-up-link').click();
  await accountFormReady(guest!);
  const email = `guest-${Date.now()}@example.test`;
  await guest!.getByTestId('account-name').fill('Dana');
  await guest!.getByTestId('account-email').fill(email);
  await guest!.getByTestId('account-password').fill(PASSWORD);
  await guest!.getByRole('button', { name: 'Create account' }).click();
  await expect(guest!.getByTestId('account-signed-in')).toContainText(email);
  await guest!.goto(threadUrl);
  await expect(guest!.getByTestId('message-assistant').last()).toContainText('Refunded $150.00 on order po_150');
  await snap(guest!, testInfo, '97-guest-signed-up-keeps-thread');
  expect(guestProblems).toEqual([]);
  await Promise.all(contexts.map((context) => context.close()));
});
