// Off the main road, item 2: what an MCP server asks for is a form, never JSON (docs/mcp.md,
// "Elicitation"; docs/hitl.md, "What the approval card shows"). A choice has a prompt and says
// what is missing right under it; a link to open is a button, and a request with nothing to fill
// in is one button in the request's own terms; a gated MCP tool's card is headed by what the call
// would do (a tool without a describe(), by its title), its arguments as labelled fields. The demo's own spec: `npm run demo:remove` takes it along.
import { expect, test } from '@playwright/test';
import { pageOn, SCREENS, send, snap, waitForIdle } from '../../../e2e/helpers';

for (const screen of SCREENS) {
  test(`an MCP server's questions and a gated MCP tool are forms and words, never JSON (${screen.width} px, ${screen.colorScheme})`, async ({
    browser,
  }, testInfo) => {
    const { context, page, problems } = await pageOn(browser, screen, '/agents/mcp-demo');
    const card = page.getByTestId('approval-card');

    // A choice: a prompt in the list, and "Choose one." under it when it is sent empty — not a banner elsewhere.
    await send(page, 'Schedule a review of the launch plan');
    await expect(card).toHaveAttribute('data-reason', 'input_required');
    await waitForIdle(page);
    const day = card.getByTestId('answer-field-day');
    await expect(day.locator('option:checked')).toHaveText('Choose…');
    await card.getByTestId('answer-button').click();
    await expect(card.getByTestId('field-error')).toHaveText('Choose one.');
    await expect(day).toHaveAttribute('aria-invalid', 'true');
    await expect(card.getByTestId('approval-problems')).toHaveCount(0);
    await snap(page, testInfo, `m1-choose-one-${screen.width}`);
    await day.selectOption('Thursday');
    await expect(card.getByTestId('field-error')).toHaveCount(0);
    await card.getByTestId('answer-button').click();
    await expect(page.getByTestId('tool-call').last().getByTestId('tool-result')).toContainText('Review of the launch plan scheduled for Thursday.');
    await waitForIdle(page);

    // A link to open: a button to it and "I’ve done it", nothing to type.
    await send(page, 'Connect my calendar');
    await expect(card).toHaveAttribute('data-reason', 'input_required');
    await waitForIdle(page);
    await expect(card.getByTestId('answer-link')).toHaveText('Open calendar.example.com');
    await expect(card.locator('textarea')).toHaveCount(0);
    await expect(card.getByTestId('answer-button')).toHaveText('I’ve done it');
    await snap(page, testInfo, `m2-open-the-link-${screen.width}`);
    await card.getByTestId('answer-button').click();
    await expect(page.getByTestId('tool-call').last().getByTestId('tool-result')).toContainText('The calendar is connected.');
    await waitForIdle(page);

    // A gated MCP tool: headed by what the call would do, the note as a labelled field; the raw call only behind Details.
    await send(page, 'Record a note: launch on Friday');
    await expect(card).toHaveAttribute('data-tool-name', 'demo_record_note');
    await expect(card.getByTestId('approval-message')).toHaveText('Record a note: “launch on Friday”');
    await expect(card.getByTestId('approval-fields')).toContainText('Note');
    await expect(card.getByTestId('approval-field-key')).toHaveText('launch on Friday');
    await expect(card.getByTestId('approval-args')).toBeHidden();
    await snap(page, testInfo, `m3-record-a-note-${screen.width}`);
    await card.getByTestId('approve-button').click();
    await expect(page.getByTestId('tool-call').last().getByTestId('tool-result')).toContainText('Recorded "launch on Friday".');
    expect(problems, problems.join('\n')).toEqual([]);
    await context.close();
  });
}
