// What a server checks before it serves (instrumentation.ts; docs/security.md, "Modes"): a keyed
// server needs STACKBONE_SECRET, STACKBONE_WEB_ACCESS must be spelled right, and a production
// server without keys needs STACKBONE_ALLOW_OPEN_ACCESS=1. A failed check ends the process with
// the reason: an error thrown from instrumentation leaves `next start` listening and failing
// every request instead, which is no refusal to start. STACKBONE_API_KEYS must read as written, each
// key at least 24 characters (docs/security.md, "Modes")
// (a malformed key label: docs/approvals.md, "Quorum and separation of duties"), and so must
// STACKBONE_APPROVER_EMAILS (docs/approvals.md, "A link counts as a person").
import { checkApproverEmails } from '../approver-emails';
import { checkApiKeyStrength } from '../open-dev-mode';
import { checkIdentitySecret } from './browser-identity';
import { checkOpenAccess } from './open-access';
import { checkWebAccess } from './web-access';

export function refuseUnsafeStart(): void {
  try {
    checkApiKeyStrength();
    checkApproverEmails();
    checkIdentitySecret();
    checkWebAccess();
    checkOpenAccess();
  } catch (error) {
    console.error(`[stackbone] The server does not start: ${(error as Error).message}`);
    process.exit(1);
  }
}
