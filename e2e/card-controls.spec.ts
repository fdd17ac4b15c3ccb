// Off the main road, item 6: a control that opens inside an approval card — Edit's "Approve with
// edits", Reject's confirm — comes into view above the composer and the banners under the
// transcript, with nothing over it, at a desktop and a phone width.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { pageOn, SCREENS, send, snap, waitForIdle } from './helpers';

/** On screen and on top: the point at its centre belongs to it, not to the composer or a banner over it. */
async function inViewAndOnTop(page: Page, control: Locator): Promise<boolean> {
  const box = await control.boundingBox();
  const viewport = page.viewportSize()!;
  if (!box || box.y < 0 || box.y + box.height > viewport.height || box.x < 0 || box.x + box.width > viewport.width) return false;
  return control.evaluate((element, [x, y]) => element.contains(document.elementFromPoint(x!, y!)), [box.x + box.width / 2, box.y + box.height / 2]);
}

for (const screen of SCREENS) {
  test(`Edit's and Reject's buttons open in view, above the composer and the banners (${screen.width} px, ${screen.colorScheme})`, async ({
    browser,
  }, testInfo) => {
    const { context, page, problems } = await pageOn(browser, screen, '/agents/helpdesk');
    // A conversation long enough that the card sits at the bottom of the transcript.
    await send(page, 'reply with 60 tokens');
    await waitForIdle(page);
    await send(page, 'refund order po_42 for 19.99');
    const card = page.getByTestId('approval-card');
    await expect(card).toBeVisible();
    await waitForIdle(page);

    await card.getByTestId('edit-button').click();
    const approveEdited = card.getByTestId('approve-edited-button');
    await expect(approveEdited).toBeVisible();
    await expect.poll(() => inViewAndOnTop(page, approveEdited)).toBe(true);
    await snap(page, testInfo, `c1-edit-in-view-${screen.width}-${screen.colorScheme}`);

    await card.getByTestId('back-button').click();
    await card.getByTestId('reject-button').click();
    const confirmReject = card.getByTestId('confirm-reject-button');
    await expect(confirmReject).toBeVisible();
    await expect.poll(() => inViewAndOnTop(page, confirmReject)).toBe(true);
    await snap(page, testInfo, `c2-reject-in-view-${screen.width}-${screen.colorScheme}`);

    // Withdrawn, so no pause is left for other specs.
    await card.getByTestId('back-button').click();
    await card.getByTestId('cancel-interrupt-button').click();
    await expect(card).toHaveCount(0);
    expect(problems, problems.join('\n')).toEqual([]);
    await context.close();
  });
}
