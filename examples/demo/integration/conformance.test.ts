// The demo's support agent keeps AG-UI's interrupt lifecycle (docs/conformance.md): exactly what
// the docs tell a developer to run, `npx stackbone conformance <app>/api/agents/support --prompt
// "refund order ord_42 for 19.99"`, passes every check on SQLite and PostgreSQL. It goes with the
// demo (`npm run demo:remove`); the suite checks the runtime with its own agent
// (tests/integration/conformance.test.ts).
import { describe, expect, it } from 'vitest';
import { backends } from '../../../tests/support/backends';
import { stackbone } from '../../../tests/support/cli';

const CHECKS = ['interrupt', 'reconnect', 'message-while-paused', 'unknown-interrupt', 'approve', 'resume-replay', 'reject'];

for (const server of backends()) {
  describe(`npx stackbone conformance against the support agent on ${server.kind}`, () => {
    it('passes every check and exits 0', async () => {
      const agentUrl = `${server.url}/api/agents/support`;
      const { code, stdout, stderr } = await stackbone(server.url, 'conformance', agentUrl, '--prompt', 'refund order ord_42 for 19.99');
      expect(stderr).toBe('');
      expect(code).toBe(0);
      for (const id of CHECKS) expect(stdout).toMatch(new RegExp(`^PASS  ${id} `, 'm'));
      expect(stdout).toMatch(/^PASS  approve .*\n .*refundOrder \(call_\w+\) has one result: "\{"refunded":true,"refundId":"re_/m);
      expect(stdout).toMatch(/^PASS  reject .*\n .*was answered "The user denied this call; it did not run\. Reason: Rejected by the conformance check\."/m);
      expect(stdout).toContain('7 checks: 7 passed.');
    });
  });
}
