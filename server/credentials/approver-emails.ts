// Whom a mailed approval link counts as (docs/approvals.md, "A link counts as a person"). A
// link is minted for an address; on a keyed server it decides as a person only when
// STACKBONE_APPROVER_EMAILS binds that address to a key's name (`alice=alice@example.com`): the
// vote is then alice's, under every rule her key meets (one voter, `approvers`,
// `requesterMayApprove`). An address bound to nobody is nobody: it decides no call that needs a
// person of its own. Below the runtime, beside the keys' labels (open-dev-mode.ts), for the
// same reason: the runtime's approver rules read it.
import { configuredKeys, isOpenDevMode, keyOwner } from './open-dev-mode';
import { setting } from '../config';

/** An address as a mail server takes it: one `@`, no spaces, brackets, commas or quotes (as agent-notify.ts checks). */
const EMAIL = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;

/**
 * STACKBONE_APPROVER_EMAILS, read: comma-separated `name=address` entries, the name a key's in
 * STACKBONE_API_KEYS. A name may have several addresses; an address has one name. Throws for a
 * malformed entry, an address bound twice, or a name no key has (on a keyed server): a binding
 * that does not read as written must not pass for another.
 */
export function parseApproverEmails(value: string, keyNames: readonly string[] | undefined): Map<string, string> {
  const byAddress = new Map<string, string>();
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const at = entry.indexOf('=');
    const name = entry.slice(0, at).trim();
    const address = entry
      .slice(at + 1)
      .trim()
      .toLowerCase();
    if (at < 1 || !EMAIL.test(address)) throw new Error(`STACKBONE_APPROVER_EMAILS: "${entry}" is not "name=address" (e.g. "alice=alice@example.com").`);
    if (keyNames && !keyNames.includes(name)) {
      throw new Error(`STACKBONE_APPROVER_EMAILS: no key in STACKBONE_API_KEYS is named "${name}" (label it "${name}=…" or "${name}:group=…").`);
    }
    const bound = byAddress.get(address);
    if (bound !== undefined && bound !== name)
      throw new Error(`STACKBONE_APPROVER_EMAILS: ${address} is bound to both "${bound}" and "${name}"; an address is one person's.`);
    byAddress.set(address, name);
  }
  return byAddress;
}

let parsed: { value: string; keys: string; byAddress: Map<string, string> } | undefined;

/** The bindings configured now, read once per value of the variables; checked against the keys' names on a keyed server. */
function bindings(): Map<string, string> {
  const value = setting('STACKBONE_APPROVER_EMAILS') ?? '';
  const keys = setting('STACKBONE_API_KEYS') ?? '';
  if (parsed?.value !== value || parsed.keys !== keys) {
    const names = isOpenDevMode() ? undefined : configuredKeys().flatMap((entry) => (entry.name === undefined ? [] : [entry.name]));
    parsed = { value, keys, byAddress: parseApproverEmails(value, names) };
  }
  return parsed.byAddress;
}

/** Throws when STACKBONE_APPROVER_EMAILS does not read as written (the server's start checks). */
export function checkApproverEmails(): void {
  bindings();
}

/** The address a link's recipient names (`email:alice@example.com`), to find its person by; none for `slack`. */
export function recipientAddress(recipient: string): string | undefined {
  return recipient.startsWith('email:') ? recipient.slice('email:'.length) : undefined;
}

/** The person a link's recipient is bound to (`email:alice@example.com` → alice's key), when it is bound to a key configured now. */
export function boundApprover(recipient: string): { ownerId: string; keyName: string } | undefined {
  const address = recipientAddress(recipient);
  if (address === undefined || isOpenDevMode()) return undefined;
  const name = bindings().get(address.toLowerCase());
  const key = name === undefined ? undefined : configuredKeys().find((entry) => entry.name === name);
  return key && name !== undefined ? { ownerId: keyOwner(key.key), keyName: name } : undefined;
}
