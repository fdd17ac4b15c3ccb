// `npx stackbone conformance` (docs/conformance.md), the real CLI: every check passes against this
// app (the tests' helpdesk, on each database; the demo's support agent is checked with the demo,
// examples/demo/integration/conformance.test.ts) and against an AG-UI server that is not this app
// (tests/support/broken-agui-server.ts without a flaw); each deliberately broken server fails the
// check it breaks, by name, with a non-zero exit.
import { afterEach, describe, expect, it } from 'vitest';
import { backends } from '../support/backends';
import { startBrokenAgUiServer, type AgUiFlaw, type BrokenAgUiServer } from '../support/broken-agui-server';
import { stackbone } from '../support/cli';

/** What makes the helpdesk call refundPayment, which waits for a person (tests/fixtures/agents/helpdesk.ts). */
const PROMPT = 'refund order po_42 for 19.99';
const CHECKS = ['interrupt', 'reconnect', 'message-while-paused', 'unknown-interrupt', 'approve', 'resume-replay', 'reject'];

interface Report {
  agentUrl: string;
  prompt: string;
  ok: boolean;
  passed: number;
  failed: number;
  skipped: number;
  checks: {
    id: string;
    title: string;
    status: 'pass' | 'fail' | 'skip';
    detail: string;
    ms: number;
    runs: {
      purpose: string;
      threadId: string;
      runId: string;
      httpStatus: number | null;
      events: string[];
      failure: { kind: string; message: string } | null;
    }[];
  }[];
}

/** The CLI against an agent URL; `--json` parsed when asked for. */
async function conformance(agentUrl: string, ...args: string[]) {
  const result = await stackbone(agentUrl, 'conformance', agentUrl, '--prompt', PROMPT, ...args);
  return { ...result, report: args.includes('--json') ? (JSON.parse(result.stdout) as Report) : undefined };
}

const statuses = (report: Report) => Object.fromEntries(report.checks.map((check) => [check.id, check.status]));
const check = (report: Report, id: string) => report.checks.find((entry) => entry.id === id)!;

for (const server of backends()) {
  describe(`npx stackbone conformance against the helpdesk on ${server.kind}`, () => {
    it('passes every check, one PASS line each, and exits 0', async () => {
      const { code, stdout, stderr } = await conformance(`${server.url}/api/agents/helpdesk`);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      for (const id of CHECKS) expect(stdout).toMatch(new RegExp(`^PASS  ${id} `, 'm'));
      expect(stdout).not.toMatch(/^(FAIL|SKIP) /m);
      expect(stdout).toContain('7 checks: 7 passed.');
    });
  });
}

describe('npx stackbone conformance --json against this app', () => {
  const [server] = backends();
  const agentUrl = () => `${server!.url}/api/agents/helpdesk`;

  it('prints one report: every check with its detail and the runs behind it', async () => {
    const { code, report } = await conformance(agentUrl(), '--json');
    expect(code).toBe(0);
    expect(report).toMatchObject({ agentUrl: agentUrl(), prompt: PROMPT, ok: true, passed: 7, failed: 0, skipped: 0 });
    expect(report!.checks.map((entry) => entry.id)).toEqual(CHECKS);
    for (const entry of report!.checks) {
      expect(entry).toMatchObject({ status: 'pass', title: expect.any(String), detail: expect.any(String), ms: expect.any(Number) });
      expect(entry.runs.length).toBeGreaterThan(0);
      for (const run of entry.runs) expect(run).toMatchObject({ httpStatus: 200, failure: null, threadId: expect.stringMatching(/^conformance-/) });
    }
    expect(check(report!, 'interrupt').runs[0]!.events.at(-1)).toBe('RUN_FINISHED(interrupt)');
    expect(check(report!, 'interrupt').detail).toMatch(/^Paused: refundPayment \(call_\w+\) as int_/);
    // This app refuses a run with no new message while a decision is pending (interrupts_pending,
    // docs/hitl.md) and shows the pause to a client that re-joins the paused run.
    const reconnect = check(report!, 'reconnect');
    expect(reconnect.runs.map((run) => run.purpose)).toEqual(['reconnect 1 (reopen)', 'reconnect 1 (rejoin)', 'reconnect 2 (rejoin)']);
    expect(reconnect.runs[0]!.events).toEqual(['RUN_STARTED', 'RUN_ERROR(interrupts_pending)']);
    expect(check(report!, 'message-while-paused').detail).toMatch(/^RUN_ERROR interrupts_pending/);
    expect(check(report!, 'unknown-interrupt').detail).toMatch(/^RUN_ERROR not_found/);
    expect(check(report!, 'approve').detail).toMatch(/; refundPayment \(call_\w+\) has one result: "/);
    expect(check(report!, 'reject').detail).toContain('The user denied this call; it did not run.');
  });

  it('--reconnect reopen only reopens with a run bringing no message, which this app refuses: the reconnect check fails', async () => {
    const { code, report } = await conformance(agentUrl(), '--json', '--reconnect', 'reopen');
    expect(code).toBe(1);
    expect(statuses(report!)).toMatchObject({ interrupt: 'pass', reconnect: 'fail', approve: 'pass', reject: 'pass' });
    expect(check(report!, 'reconnect').detail).toMatch(/^Reconnect 1 \(reopen: a run with no new message\): RUN_ERROR interrupts_pending/);
  });
});

describe('npx stackbone conformance against AG-UI servers that are not this app', () => {
  let server: BrokenAgUiServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async (options: { flaw?: AgUiFlaw; requireHeaders?: Record<string, string> } = {}) => (server = await startBrokenAgUiServer(options));

  it('passes a server that keeps the interrupt lifecycle, reconnecting with a run that brings no message', async () => {
    const { url, toolRuns } = await start();
    const { code, report } = await conformance(url, '--json');
    expect(code).toBe(0);
    expect(report!.ok).toBe(true);
    expect(check(report!, 'reconnect').runs.map((run) => run.purpose)).toEqual(['reconnect 1 (reopen)', 'reconnect 2 (reopen)']);
    expect(toolRuns()).toBe(1); // the approval ran it; neither the resent resume nor the rejection did
  });

  it('fails "interrupt" (and "reject") against a server that runs the gated tool without asking', async () => {
    const { url } = await start({ flaw: 'runs-tool-unasked' });
    const human = await conformance(url);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^FAIL  interrupt /m);
    expect(human.stdout).toMatch(/outcome "success", not "interrupt", and the tool ran without asking anyone \(TOOL_CALL_RESULT for call_/);
    expect(human.stdout).toMatch(/RUN_STARTED TOOL_CALL_START TOOL_CALL_ARGS TOOL_CALL_END TOOL_CALL_RESULT .*RUN_FINISHED\(success\)/);

    const { code, report } = await conformance(url, '--json');
    expect(code).toBe(1);
    expect(report).toMatchObject({ ok: false, passed: 0, failed: 2, skipped: 5 });
    expect(statuses(report!)).toEqual({
      interrupt: 'fail',
      reconnect: 'skip',
      'message-while-paused': 'skip',
      'unknown-interrupt': 'skip',
      approve: 'skip',
      'resume-replay': 'skip',
      reject: 'fail',
    });
    expect(check(report!, 'reconnect').detail).toBe('Not run: it needs "interrupt" to pass first.');
  });

  it('fails "reconnect" alone against a server that forgets the interrupt when the thread is reopened', async () => {
    const { url } = await start({ flaw: 'forgets-interrupt-on-reconnect' });
    const human = await conformance(url);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^FAIL  reconnect /m);
    expect(human.stdout).toContain('RUN_FINISHED with outcome "success": the pending interrupt is gone');

    const { code, report } = await conformance(url, '--json');
    expect(code).toBe(1);
    expect(report).toMatchObject({ ok: false, passed: 6, failed: 1, skipped: 0 });
    expect(check(report!, 'reconnect')).toMatchObject({
      status: 'fail',
      runs: [{ purpose: 'reconnect 1 (reopen)', events: ['RUN_STARTED', 'MESSAGES_SNAPSHOT', 'RUN_FINISHED(success)'] }],
    });
  });

  it('sends --header and --api-key with every request; without them the server refuses and the first check says so', async () => {
    const { url, requests } = await start({ requireHeaders: { authorization: 'Bearer sk-test', 'x-tenant': 'acme' } });
    const refused = await conformance(url, '--json');
    expect(refused.code).toBe(1);
    expect(check(refused.report!, 'interrupt')).toMatchObject({ status: 'fail', detail: "The prompt's run: answered HTTP 401 (unauthorized)." });

    const before = requests().length;
    const { code } = await conformance(url, '--api-key', 'sk-test', '--header', 'X-Tenant: acme');
    expect(code).toBe(0);
    const sent = requests().slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(9);
    for (const headers of sent) expect(headers).toMatchObject({ authorization: 'Bearer sk-test', 'x-tenant': 'acme' });
  });

  it('--timeout bounds each run: a run that never ends fails its check', async () => {
    const { url } = await start({ flaw: 'hangs' });
    const { code, report } = await conformance(url, '--json', '--timeout', '1');
    expect(code).toBe(1);
    expect(check(report!, 'interrupt')).toMatchObject({
      status: 'fail',
      detail: "The prompt's run: the run did not end within 1s (--timeout).",
      runs: [{ events: ['RUN_STARTED'], failure: { kind: 'timeout' } }],
    });
  });
});
