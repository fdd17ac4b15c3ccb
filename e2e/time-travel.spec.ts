// Edit-and-resend and regenerate in the web app (docs/time-travel.md): the pencil on a user
// message sends the new text in a new thread forked before it, the Regenerate button under a
// reply asks it again in a new thread (a version of the reply, "‹ 2/2 ›"); the original stays as
// it was, the sidebar lists the edit's fork under it (a version is no conversation of its own),
// Studio links the two both ways, and a lookup made before the fork point shows as having
// happened in the original.
import { expect, test } from '@playwright/test';
import { collectConsoleProblems, send, snap, THREAD_URL, waitForHydration, waitForIdle } from './helpers';

test('a message is edited and resent, and a reply regenerated, each in a new thread under the original', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'Where is order po_42?');
  await waitForIdle(page);
  await send(page, 'hello there');
  await waitForIdle(page);
  await expect(page).toHaveURL(THREAD_URL('helpdesk'));
  const original = page.url();
  await expect(page.getByTestId('message-user')).toHaveText(['Where is order po_42?', 'hello there']);

  // Edit the second question: the new thread holds the lookup (done in the original) and the new text.
  await page.getByTestId('edit-message-button').nth(1).click();
  await page.getByLabel('Edit your message').fill('hello, how are you?');
  await snap(page, testInfo, '70-editing-a-message');
  await page.getByRole('button', { name: 'Send in a new thread' }).click();
  await expect(page).not.toHaveURL(original);
  await expect(page).toHaveURL(THREAD_URL('helpdesk'));
  await waitForHydration(page);
  await waitForIdle(page);
  await expect(page.getByTestId('forked-from')).toContainText('Edited and resent from the original thread');
  await expect(page.getByTestId('message-user')).toHaveText(['Where is order po_42?', 'hello, how are you?']);
  await expect(page.getByTestId('inherited-effect')).toHaveCount(1);
  await expect(page.getByTestId('message-assistant').last()).not.toBeEmpty();
  // The sidebar lists the fork right under the thread it came from.
  const sidebar = page.getByTestId('thread-sidebar');
  await expect(sidebar.locator('li[data-fork]')).toHaveCount(1);
  await snap(page, testInfo, '71-edited-in-a-fork');
  const fork = page.url();

  // Studio's trail of the fork names its parent, and the parent's names the fork.
  await page.getByTestId('chat-audit-link').click();
  await expect(page.getByTestId('audit-lineage')).toContainText('Edited and resent from its parent thread');
  await page.getByTestId('audit-lineage').getByRole('link', { name: 'its parent thread' }).click();
  await expect(page.getByTestId('audit-lineage')).toContainText('Forks:');
  await snap(page, testInfo, '73-lineage-in-studio');
  await page.goto(fork);
  await waitForHydration(page);

  // The original is as it was.
  await page.getByTestId('forked-from').getByRole('link').click();
  await expect(page).toHaveURL(original);
  await waitForHydration(page);
  await expect(page.getByTestId('message-user')).toHaveText(['Where is order po_42?', 'hello there']);

  // Regenerate the first reply: a new thread with the question and a fresh answer.
  await page.getByTestId('regenerate-button').first().click();
  await expect(page).not.toHaveURL(original);
  await waitForHydration(page);
  await waitForIdle(page);
  await expect(page.getByTestId('forked-from')).toContainText('Regenerated from the original thread');
  await expect(page.getByTestId('message-user')).toHaveText(['Where is order po_42?']);
  await expect(page.getByTestId('message-assistant').last()).toContainText('po_42');
  // A regeneration is a version of the reply, not a conversation of its own: the sidebar keeps one entry, the original's, marked as open.
  await expect(sidebar.locator('li[data-fork]')).toHaveCount(1);
  await expect(page.getByTestId('reply-version')).toHaveText('2/2');
  await expect(sidebar.locator('[aria-current="page"]')).toHaveAttribute('href', new URL(original).pathname);
  await snap(page, testInfo, '72-regenerated-in-a-fork');
  expect(problems, problems.join('\n')).toEqual([]);
});
