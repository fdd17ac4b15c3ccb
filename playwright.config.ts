// End-to-end tests in a real browser against a production build (`next build` runs once
// before, in scripts/test.mjs), on a fresh SQLite database and the scripted model.
import { existsSync } from 'node:fs';
import { chromium, defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import { startCommand } from './e2e/start-command';

/**
 * Two workers (one per core: the stage took ~4:10 instead of ~5:30 on one), each with a pair of
 * servers of its own (its slot's), so that what one spec's conversations leave never shows in
 * another's lists: the runner starts every slot's pair, and a worker's TEST_PARALLEL_INDEX names
 * its slot. Keep in step with KEYED_URL in e2e/helpers.ts.
 */
const WORKERS = 2;
const SLOT = Number(process.env.TEST_PARALLEL_INDEX) || 0;
// STACKBONE_TEST_PORT_OFFSET: see tests/support/server.ts.
const OFFSET = Number(process.env.STACKBONE_TEST_PORT_OFFSET) || 0;
const portsOf = (slot: number) => ({ open: 3100 + 10 * slot + OFFSET, keyed: 3101 + 10 * slot + OFFSET });
const baseURL = `http://127.0.0.1:${portsOf(SLOT).open}`;
/** One server of the runner's (Playwright's own type, which it does not export by name). */
type WebServer = Extract<PlaywrightTestConfig['webServer'], unknown[]>[number];

// Playwright's own Chromium when it is installed; otherwise the system one (these machines
// cannot download browsers): Debian's `chromium-headless-shell`, the headless build Playwright
// itself runs (the e2e stage took 20% less wall time than in full `chromium`, whose compositor
// kept a core busy), else Debian's `chromium`. CHROMIUM_PATH names another.
const bundledChromium = (() => {
  try {
    return existsSync(chromium.executablePath());
  } catch {
    return false;
  }
})();
const systemChromium = bundledChromium
  ? {}
  : {
      executablePath: process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    };

export default defineConfig({
  // The product's specs, and each example's own (examples/<name>/e2e/), which go with it.
  testDir: '.',
  testMatch: ['e2e/**/*.spec.ts', 'examples/*/e2e/**/*.spec.ts'],
  // Your first agent, on a copy with the demo removed and `agent:new` run (.ci/run): its own config.
  testIgnore: ['e2e/own-agent/**'],
  // Screenshots of every step, per test (Playwright's own default folder).
  outputDir: 'test-results',
  workers: WORKERS,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { outputFolder: 'playwright-report', open: 'never' }]] : 'list',
  use: {
    baseURL,
    screenshot: 'on',
    // A failed test keeps its trace (each action's DOM, network and console) beside its
    // screenshots; without the trace's own screencast, which cost the stage a sixth of its CPU
    // (chat + product-ui: 63 s instead of 69 s).
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: systemChromium,
  },
  webServer: Array.from({ length: WORKERS }, (_, slot) => portsOf(slot)).flatMap(({ open, keyed }, slot): WebServer[] => [
    {
      // A fresh database every run: tests assert on "recent conversations" and restored threads.
      command: startCommand(`.data/e2e-${slot}.db`, open),
      url: `http://127.0.0.1:${open}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        DATABASE_URL: `file:./.data/e2e-${slot}.db`,
        STACKBONE_MODEL: 'scripted',
        // Open dev mode: the browser is the local owner. A production server (`next start`) runs
        // without keys only with this opt-in (docs/security.md, "Modes").
        STACKBONE_API_KEYS: '',
        STACKBONE_ALLOW_OPEN_ACCESS: '1',
        // Slow the scripted model a little so streaming is observable, as a user would see it.
        STACKBONE_SCRIPTED_DELAY_MS: '15',
        // The agents the specs drive are the fixtures' (tests/fixtures/agents/), which the tests' build has.
        STACKBONE_FIXTURE_AGENTS: '1',
        NEXT_TELEMETRY_DISABLED: '1',
        CHECKPOINT_DISABLE: '1',
      },
    },
    {
      command: startCommand(`.data/e2e-keyed-${slot}.db`, keyed),
      url: `http://127.0.0.1:${keyed}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        DATABASE_URL: `file:./.data/e2e-keyed-${slot}.db`,
        STACKBONE_MODEL: 'scripted',
        STACKBONE_API_KEYS: 'e2e-desk-key-0123456789ab',
        STACKBONE_SECRET: 'e2e-cookie-secret-0123456789abcdef0123',
        STACKBONE_WEB_ACCESS: 'open',
        // e2e/inbox-flood.spec.ts's three customers ask for 55 refunds between them, more than an
        // identity's 5 paused threads (docs/security.md, "The open web"); that limit is proven in
        // tests/integration/open-web-limits.test.ts.
        STACKBONE_MAX_PAUSED_THREADS: '20',
        // e2e/accounts.spec.ts: two finance approvers who sign in (docs/users-and-roles.md).
        STACKBONE_ROLES: 'finance=alice@example.test,bob@example.test',
        // The desk of e2e/keyed-desk.spec.ts and e2e/inbox-flood.spec.ts: an admin, who decides what is kept for key holders.
        STACKBONE_ADMIN_EMAILS: 'desk@example.test',
        STACKBONE_FIXTURE_AGENTS: '1',
        NEXT_TELEMETRY_DISABLED: '1',
        CHECKPOINT_DISABLE: '1',
      },
    },
  ]),
});
