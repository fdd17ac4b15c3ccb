// Retry in the web app (docs/turn-control.md): a turn that failed mid-reply shows the error
// with a Retry button; Retry runs the turn again, the partial reply gives way to the full one,
// and a reload shows the thread as it ended. Then the same on a real provider: a server of its
// own on the same build, pointed at the provider test server, whose failures the chat shows.
import { expect, test } from '@playwright/test';
import { freshSqliteUrl } from '../tests/support/database';
import { openAiChatOnlyEnv, startProviderServer } from '../tests/support/provider-server';
import { startServer } from '../tests/support/server';
import { collectConsoleProblems, send, snap, THREAD_URL, waitForHydration, waitForIdle } from './helpers';

test('a failed turn is retried with one click: the partial reply gives way to the full one', async ({ page }, testInfo) => {
  const problems = collectConsoleProblems(page);
  await page.goto('/agents/helpdesk');
  await waitForHydration(page);
  await send(page, 'fail once after 5 words');
  const error = page.getByTestId('run-error');
  await expect(error).toHaveAttribute('data-code', 'model_error');
  // The cut-off reply says it was cut short (e2e/failed-reply.spec.ts).
  await expect(page.getByTestId('message-assistant')).toContainText('token1 token2 token3 token4 token5');
  await expect(page.getByTestId('message-assistant').getByTestId('message-failed')).toBeVisible();
  await expect(page).toHaveURL(THREAD_URL('helpdesk'));
  await snap(page, testInfo, '40-failed-with-retry');

  // The failure is part of the server's first paint: after a reload Retry is still offered.
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('retry-button')).toBeVisible();

  await page.getByTestId('retry-button').click();
  await waitForIdle(page);
  await expect(error).toHaveCount(0);
  await expect(page.getByTestId('message-assistant')).toHaveCount(1);
  await expect(page.getByTestId('message-assistant')).toHaveText('token1 token2 token3 token4 token5');
  await expect(page.getByTestId('retry-button')).toHaveCount(0);
  await snap(page, testInfo, '41-retried');

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  await expect(page.getByTestId('message-assistant')).toHaveCount(1);
  expect(problems, problems.join('\n')).toEqual([]);
});

// The helpdesk agent on the real @ai-sdk/openai provider (docs/models.md, "When the provider fails"):
// a server of this test's own (port 3102 + the offset), as the others run the scripted model.
test('a provider failure shows Retry and Retry goes through to the provider’s reply', async ({ page }, testInfo) => {
  // A server start (a migrated database, `next start`) is in it: a few seconds on an idle machine, far more on a busy one.
  test.setTimeout(120_000);
  const provider = await startProviderServer();
  const server = await startServer({
    port: 3102,
    databaseUrl: await freshSqliteUrl(),
    env: {
      ...openAiChatOnlyEnv(provider.baseUrl),
      STACKBONE_API_KEYS: '',
    },
  });
  try {
    // Overloaded on the first try and both of the agent's retries.
    const overloaded = { status: 529, retryAfter: '0', message: 'Overloaded at pool-internal-3' };
    provider.script(overloaded, overloaded, overloaded);
    await page.goto(`${server.url}/agents/helpdesk`);
    await waitForHydration(page);
    await send(page, 'where is po_42?');
    const error = page.getByTestId('run-error');
    // Three calls and the server's log of them: slower than a scripted failure on a busy machine.
    await expect(error).toHaveAttribute('data-code', 'model_error', { timeout: 30_000 });
    await expect(error).toContainText('The provider is busy — try again');
    await expect(error).not.toContainText('pool-internal-3');
    await snap(page, testInfo, '42-provider-busy');
    // After a reload the first paint says the same: the failure's details are in it.
    await page.reload();
    await waitForHydration(page);
    await expect(error).toContainText('The provider is busy — try again');

    // Whatever of the failures is left (a retry may have died on its connection first), the next call answers.
    provider.reset();
    provider.script({ text: 'Order po_42 was delivered on Monday.' });
    await page.getByTestId('retry-button').click();
    await waitForIdle(page);
    await expect(error).toHaveCount(0);
    await expect(page.getByTestId('message-assistant')).toHaveText('Order po_42 was delivered on Monday.');
    expect(provider.requests).toHaveLength(1);
  } finally {
    // A throwaway server on a throwaway database: no graceful stop to wait for (the browser's open connections would hold one).
    await server.kill('SIGKILL');
    await provider.close();
  }
});
