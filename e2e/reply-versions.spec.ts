// Off the main road, item 11: Regenerate keeps a reply's versions together (docs/time-travel.md,
// "Regenerate"). Each regeneration is a fork of the thread, durable as any; the chat shows the
// original reply and its regenerations as versions of one reply, "‹ 2/3 ›", and switches between
// them in place; regenerating a version asks the original's reply again; "New thread from here"
// still forks the conversation into a thread of its own.
import { expect, test } from '@playwright/test';
import { pageOn, SCREENS, send, snap, THREAD_URL, waitForHydration, waitForIdle } from './helpers';

for (const screen of SCREENS) {
  test(`a regenerated reply keeps its versions: ‹ 2/3 › switches between them (${screen.width} px, ${screen.colorScheme})`, async ({ browser }, testInfo) => {
    const { context, page, problems } = await pageOn(browser, screen, '/agents/helpdesk');
    await send(page, 'reply with 6 tokens');
    await waitForIdle(page);
    await expect(page).toHaveURL(THREAD_URL('helpdesk'));
    const original = page.url();
    await expect(page.getByTestId('reply-versions')).toHaveCount(0);

    // Regenerate: version 2, in place of the reply.
    await page.getByTestId('regenerate-button').last().click();
    await expect(page).not.toHaveURL(original);
    await waitForHydration(page);
    await waitForIdle(page);
    const second = page.url();
    await expect(page.getByTestId('reply-version')).toHaveText('2/2');
    await expect(page.getByTestId('message-user')).toHaveText(['reply with 6 tokens']);

    // Regenerate version 2: the original's reply is asked again — version 3 of the same reply.
    await page.getByTestId('regenerate-button').last().click();
    await expect(page).not.toHaveURL(second);
    await waitForHydration(page);
    await waitForIdle(page);
    await expect(page.getByTestId('reply-version')).toHaveText('3/3');
    await snap(page, testInfo, `v1-version-3-of-3-${screen.width}`);

    // ‹ goes back through them; the original shows 1/3 and no way further back.
    await page.getByTestId('version-previous').click();
    await expect(page).toHaveURL(second);
    await expect(page.getByTestId('reply-version')).toHaveText('2/3');
    await page.getByTestId('version-previous').click();
    await expect(page).toHaveURL(original);
    await expect(page.getByTestId('reply-version')).toHaveText('1/3');
    await expect(page.getByTestId('version-previous')).toHaveCount(0);
    await snap(page, testInfo, `v2-version-1-of-3-${screen.width}`);
    await page.getByTestId('version-next').click();
    await expect(page).toHaveURL(second);

    // A thread of its own stays a click away: up to and with this reply, no versions of it.
    await page.getByTestId('branch-button').last().click();
    await expect(page).not.toHaveURL(second);
    await waitForHydration(page);
    await expect(page.getByTestId('forked-from')).toContainText('Forked from the original thread');
    await expect(page.getByTestId('message-user')).toHaveText(['reply with 6 tokens']);
    await expect(page.getByTestId('reply-versions')).toHaveCount(0);
    expect(problems).toEqual([]);
    await context.close();
  });
}
