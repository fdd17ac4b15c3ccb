// "Your first agent", as a newcomer meets it (docs/make-it-yours.md, "3. Your first agent"): on a
// copy of the app with the demo removed, `npm run agent:new -- billing`, `npm run build` and
// `npm start` with no model key. .ci/run does exactly that on a clone, then runs this config.
import { defineConfig } from '@playwright/test';
import base from '../../playwright.config';
import { startCommand } from '../start-command';

const PORT = 3190 + (Number(process.env.STACKBONE_TEST_PORT_OFFSET) || 0);
const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: ['*.spec.ts'],
  testIgnore: [],
  // One spec on one server.
  workers: 1,
  outputDir: '../../test-results/own-agent',
  use: { ...base.use, baseURL },
  webServer: {
    command: startCommand('.data/own-agent.db', PORT),
    cwd: '../..',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
    // No model key (the scripted model answers), no API keys: open access on this machine only.
    env: {
      DATABASE_URL: 'file:./.data/own-agent.db',
      STACKBONE_API_KEYS: '',
      STACKBONE_ALLOW_OPEN_ACCESS: '1',
      NEXT_TELEMETRY_DISABLED: '1',
      CHECKPOINT_DISABLE: '1',
    },
  },
});
