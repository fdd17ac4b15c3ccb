// What a server checks before it serves (server/boot, from instrumentation.ts; docs/security.md, "Modes"): every
// variable reads as its declaration says (server/config; one line names the first that does not,
// e.g. `STACKBONE_LEASE_MS must be a positive whole number of milliseconds, got "abc"`), a keyed
// server needs STACKBONE_SECRET, and a production server without keys needs
// STACKBONE_ALLOW_OPEN_ACCESS=1. A failed check ends the process with the reason: an error thrown
// from instrumentation leaves `next start` listening and failing every request instead, which is
// no refusal to start. STACKBONE_API_KEYS must read as written, each key at least 24 characters
// (docs/security.md, "Modes"; a malformed key label: docs/approvals.md, "Quorum and separation of
// duties"), and so must STACKBONE_APPROVER_EMAILS (docs/approvals.md, "A link counts as a person")
// and STACKBONE_ROLES (docs/users-and-roles.md, "Roles"), and a receipt key given must be an
// Ed25519 JWK (docs/approvals.md, "Signed receipts").
import { checkApproverEmails } from '../credentials/approver-emails';
import { checkSettings } from '../config';
import { checkApiKeyStrength } from '../credentials/open-dev-mode';
import { checkSigningSecret } from '../credentials/signing-secret';
import { checkOpenAccess } from './open-access';
import { checkSeededRoles } from '../auth/seeded-roles';
import { checkReceiptKeys } from '../receipts';

export function refuseUnsafeStart(): void {
  try {
    checkSettings();
    checkApiKeyStrength();
    checkApproverEmails();
    checkSeededRoles();
    checkSigningSecret();
    checkReceiptKeys();
    checkOpenAccess();
  } catch (error) {
    console.error(`[stackbone] The server does not start: ${(error as Error).message}`);
    process.exit(1);
  }
}
