// Tools the page runs (docs/internals/wires.md, "Frontend tools"): the chat offers a confirm dialog and
// the browser's clock with every run; the agent calls them, the browser answers, the turn
// goes on with the result.
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, send, snap, waitForHydration, waitForIdle } from './helpers';

test.use({ timezoneId: 'Pacific/Auckland', locale: 'en-NZ' });

test('the confirm dialog round trip, and the browser-state result quoted by the agent', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);

  await send(page, 'ask me to confirm deleting the draft');
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('deleting the draft');
  // The safe answer has focus: Enter or Space never confirms by accident.
  await expect(page.getByTestId('confirm-no')).toBeFocused();
  await snap(page, testInfo, '90-confirm-dialog');
  await page.getByTestId('confirm-yes').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('tool-call').getByTestId('tool-result')).toContainText('"confirmed": true');
  await expect(page.getByTestId('message-assistant').last()).toContainText('You confirmed: deleting the draft.');
  await waitForIdle(page);

  // Declined with the keyboard: the agent hears "no".
  await send(page, 'ask me to confirm closing the account');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('message-assistant').last()).toContainText('You did not confirm: closing the account.');
  await waitForIdle(page);

  await send(page, 'what time is it for me');
  await expect(page.getByTestId('message-assistant').last()).toContainText('for you (Pacific/Auckland, en-NZ)');
  await waitForIdle(page);
  await snap(page, testInfo, '91-browser-context');

  // After a reload the results are part of the thread.
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('message-assistant').last()).toContainText('Pacific/Auckland');
  expect(problems, problems.join('\n')).toEqual([]);
});
