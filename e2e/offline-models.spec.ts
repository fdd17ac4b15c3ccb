// Off the main road, item 4 (docs/models.md, "Choosing a model"): with no key for a model, the
// picker still offers it by the id a key would use, but says the offline model answers, and the
// reply to "which model?" says who really answered — never the model it stands in for.
import { expect, test } from '@playwright/test';
import { pageOn, SCREENS, send, snap, waitForIdle } from './helpers';

for (const screen of SCREENS) {
  test(`offline, the picker and the reply say the offline model answers (${screen.width} px, ${screen.colorScheme})`, async ({ browser }, testInfo) => {
    const { context, page, problems } = await pageOn(browser, screen, '/agents/helpdesk');

    // The tests set no provider key: every model the helpdesk offers is answered offline.
    const picker = page.getByTestId('model-picker');
    await expect(picker).toHaveAttribute('data-offline', 'true');
    await expect(picker.getByTestId('model-offline')).toHaveText('offline');
    await expect(picker).toHaveAttribute('title', /No key serves openai\/gpt-4o-mini here: the offline scripted model answers in its place/);
    await picker.click();
    const claude = page.getByRole('option', { name: /Claude Sonnet 4\.6/ });
    await expect(claude).toContainText('anthropic/claude-sonnet-4-6 · the offline model answers');
    await snap(page, testInfo, `d1-offline-picker-${screen.width}-${screen.colorScheme}`);
    await claude.click();
    await expect(picker).toContainText('Claude Sonnet 4.6');
    await expect(picker.getByTestId('model-offline')).toBeVisible();

    await send(page, 'which model are you?');
    await waitForIdle(page);
    const reply = page.getByTestId('message-assistant').last();
    await expect(reply).toHaveText('I am the offline scripted model, standing in for anthropic/claude-sonnet-4-6.');
    await expect(reply).not.toContainText('I am answering as');
    await snap(page, testInfo, `d2-offline-reply-${screen.width}-${screen.colorScheme}`);
    expect(problems, problems.join('\n')).toEqual([]);
    await context.close();
  });
}
