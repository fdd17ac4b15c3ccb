// Shared steps of the e2e specs: screenshots per step, console problems, sending a message.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type ConsoleMessage, type Page, type TestInfo } from '@playwright/test';

/** A named screenshot per step, in this test's folder under test-results/. */
export async function snap(page: Page, testInfo: TestInfo, name: string) {
  // Animations run to their end first: a card caught arriving would look faded.
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true, animations: 'disabled' });
}

/** Browser warnings and errors: HttpAgent warns about events it has to repair or strip. */
export function collectConsoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'warning' || message.type() === 'error') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`http ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return problems;
}

/** Controls are disabled until React hydrates; clicking earlier would be lost. */
export async function waitForHydration(page: Page) {
  await expect(page.getByTestId('composer-input')).toBeEnabled();
}

export async function send(page: Page, text: string) {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('send-button').click();
}

export async function waitForIdle(page: Page) {
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'idle');
}

export const THREAD_URL = (agent: string) => new RegExp(`/agents/${agent}/[0-9a-f-]{36}$`);

/** This worker's keyed server of playwright.config.ts (STACKBONE_WEB_ACCESS=open; its slot's, by TEST_PARALLEL_INDEX). */
export const KEYED_URL = `http://127.0.0.1:${3101 + 10 * (Number(process.env.TEST_PARALLEL_INDEX) || 0) + (Number(process.env.STACKBONE_TEST_PORT_OFFSET) || 0)}`;
/** The keyed server's operator: an admin by its STACKBONE_ADMIN_EMAILS, who decides what is kept for key holders. */
export const DESK_EMAIL = 'desk@example.test';
/** Every e2e account's password. */
export const PASSWORD = 'correct horse battery';

/**
 * An account on the keyed server, made once per database (a rerun signs in): the Cookie header of
 * its session, for a spec's own requests.
 */
export async function accountCookie(email: string): Promise<string> {
  const post = (path: string, body: object) =>
    fetch(`${KEYED_URL}/api/auth/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: KEYED_URL }, body: JSON.stringify(body) });
  let response = await post('sign-up/email', { email, password: PASSWORD, name: email.split('@')[0] });
  if (response.status !== 200) response = await post('sign-in/email', { email, password: PASSWORD });
  expect(response.status, `${email} signs up or in`).toBe(200);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .join('; ');
}

/** The account form, once React runs it (typing earlier would be lost). */
export const accountFormReady = (page: Page) => expect(page.locator('[data-testid="account-form"][data-hydrated]')).toHaveCount(1);

/** Signs in on /sign-in as a person would, and lands on `next`, the header naming them. */
export async function signInAs(page: Page, email: string, next = '/studio') {
  await page.goto(`${KEYED_URL}/sign-in?next=${encodeURIComponent(next)}`);
  await accountFormReady(page);
  await page.getByTestId('account-email').fill(email);
  await page.getByTestId('account-password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).first().click();
  await page.waitForURL(`${KEYED_URL}${next}`);
  await expect(page.getByTestId('account-signed-in')).toContainText(email);
}

/** Serious or critical WCAG 2 A/AA violations on the page as it stands (axe-core), one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // A card still fading in has the contrast of its opacity: let running animations end first (a spinner never does).
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** The two screens each of the chat's off-the-main-road specs is shown on: a desktop in light, a phone in dark. */
export const SCREENS = [
  { width: 1280, height: 860, colorScheme: 'light' as const },
  { width: 375, height: 800, colorScheme: 'dark' as const },
];

/**
 * A page of its own on `screen`, opened at `path` and hydrated, with its console problems
 * collected; `beforeLoad` runs first (an init script that must see the page load).
 */
export async function pageOn(browser: Browser, screen: (typeof SCREENS)[number], path: string, beforeLoad?: (page: Page) => Promise<unknown>) {
  const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height }, colorScheme: screen.colorScheme });
  const page = await context.newPage();
  const problems = collectConsoleProblems(page);
  await beforeLoad?.(page);
  await page.goto(path);
  await waitForHydration(page);
  return { context, page, problems };
}

/**
 * The approve link of the mail an order's refund request was kept as: open dev mode keeps mail it
 * cannot send in .data/mail (docs/approvals.md); the order id is matched whole. Newest first: the
 * mailbox keeps only the latest messages, so an old one can go (another spec's mail pushing it
 * out) between the listing and its reading, and is skipped.
 */
export async function mailedLink(orderId: string): Promise<string | undefined> {
  const mailbox = path.resolve('.data/mail');
  const names = (await readdir(mailbox).catch(() => [] as string[])).filter((name) => name.endsWith('.html'));
  for (const name of names.sort().reverse()) {
    const html = await readFile(path.join(mailbox, name), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    if (new RegExp(`order ${orderId}\\b`).test(html)) return /href="([^"]*\/approve\/[^"]+)"/.exec(html)?.[1];
  }
  return undefined;
}
