// Open dev mode (docs/security.md, "Modes"): no STACKBONE_API_KEYS, and every request is the one
// local owner. A fact of configuration, not of HTTP: the runtime reads it too, for trusted
// server code that names no owner (docs/turn-control.md, "Server append"), so it sits below
// both server/runtime and server/http. The keys' labels live here for the same reason: the
// runtime matches named approvers against them (docs/approvals.md, "Quorum and separation of duties").
import { createHash } from 'node:crypto';
import { sign } from './signature';
import { setting } from '../config';

export const LOCAL_OWNER = 'local';

/** One entry of STACKBONE_API_KEYS: the secret, and the name and groups of a labelled one (`alice:finance+ops=sk-…`). */
export interface ConfiguredKey {
  key: string;
  /** Absent for a bare key. */
  name?: string;
  groups: string[];
}

/**
 * A key's name or group, and a user's role (server/auth/seeded-roles.ts): letters, digits, `_`,
 * `.`, `-`; at most 64. An approvers entry names one of them (approver-entries.ts).
 */
export const LABEL_WORD = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * STACKBONE_API_KEYS, read: comma-separated entries, each a bare key or `label=key` where the
 * label is `name` or `name:group1+group2`. An entry counts as labelled when an `=` is followed
 * by more than `=` (a base64 key's padding keeps a bare key bare). A malformed label, or a name
 * given twice, throws: a label that does not read as written must not pass for another.
 */
export function parseApiKeys(value: string): ConfiguredKey[] {
  const entries: ConfiguredKey[] = [];
  const names = new Set<string>();
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const at = entry.indexOf('=');
    if (at < 0 || /^=*$/.test(entry.slice(at))) {
      entries.push({ key: entry, groups: [] });
      continue;
    }
    const label = entry.slice(0, at).trim();
    const key = entry.slice(at + 1).trim();
    const [name = '', groupList, ...extra] = label.split(':');
    const groups = groupList === undefined ? [] : groupList.split('+');
    if (!LABEL_WORD.test(name) || extra.length > 0 || groups.some((group) => !LABEL_WORD.test(group)) || !key) {
      throw new Error(
        `STACKBONE_API_KEYS: the entry labelled "${label}" is not "name=key" or "name:group1+group2=key" (names and groups: letters, digits, "_", ".", "-").`,
      );
    }
    if (names.has(name)) throw new Error(`STACKBONE_API_KEYS: two keys are named "${name}"; a name is one person's (give them a group to share).`);
    names.add(name);
    entries.push({ key, name, groups });
  }
  return entries;
}

let parsed: { value: string; keys: ConfiguredKey[]; byOwner: Map<string, ConfiguredKey> } | undefined;

/** STACKBONE_API_KEYS as configured now, read once per value of the variable. */
export function configuredKeys(): ConfiguredKey[] {
  return keyConfig().keys;
}

function keyConfig() {
  const value = setting('STACKBONE_API_KEYS') ?? '';
  if (parsed?.value !== value) {
    const keys = parseApiKeys(value);
    parsed = { value, keys, byOwner: new Map(keys.map((entry) => [keyOwner(entry.key), entry])) };
  }
  return parsed;
}

/** The API keys that own sessions (STACKBONE_API_KEYS, comma-separated); none = open dev mode. */
export function configuredApiKeys(): string[] {
  return configuredKeys().map((entry) => entry.key);
}

/** The owner id of an API key: `key:` and 24 hex digits of its SHA-256 (a labelled key's is its secret's, as a bare one's). */
export function keyOwner(key: string): string {
  return `key:${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}

/**
 * An owner id as it may leave the server — in a webhook, an export, an audit trail: a key's is
 * re-keyed with STACKBONE_SECRET, so that what leaves is no offline oracle for the key itself
 * (its stored id is a bare hash of it). Stable while the secret is; other owners' ids are as
 * stored (a browser's is random, the local owner's is `local`). docs/security.md, "Links and deliveries".
 */
export function publicOwnerId(ownerId: string): string {
  if (!ownerId.startsWith('key:')) return ownerId;
  return `key:${sign('owner-id', ownerId, setting('STACKBONE_SECRET') ?? '').slice(0, 24)}`;
}

/** Every `ownerId` in a JSON value, as it may leave the server (publicOwnerId): for webhooks and exports, which carry data as stored. */
export function withPublicOwnerIds<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => withPublicOwnerIds(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, key === 'ownerId' && typeof item === 'string' ? publicOwnerId(item) : withPublicOwnerIds(item)]),
  ) as T;
}

/** The name and groups of the key configured now whose owner id this is; undefined for any other owner. */
export function keyLabelOf(ownerId: string): Pick<ConfiguredKey, 'name' | 'groups'> | undefined {
  const entry = keyConfig().byOwner.get(ownerId);
  return entry && { ...(entry.name !== undefined ? { name: entry.name } : {}), groups: entry.groups };
}

/** The shortest API key a server starts with: 24 characters (`openssl rand -hex 24` makes 48). */
const MIN_API_KEY_LENGTH = 24;

/**
 * Throws when a configured key is shorter than MIN_API_KEY_LENGTH (docs/security.md, "Modes"): a
 * short key is guessed at wire speed, whatever limit stands before it. The key is named by its
 * label or its place in the list, never shown.
 */
export function checkApiKeyStrength(): void {
  configuredKeys().forEach((entry, index) => {
    if (entry.key.length >= MIN_API_KEY_LENGTH) return;
    const which = entry.name ? `the key named "${entry.name}"` : `key ${index + 1} of the list`;
    throw new Error(
      `STACKBONE_API_KEYS: ${which} is ${entry.key.length} characters; a key is at least ${MIN_API_KEY_LENGTH} (make one with \`openssl rand -hex 24\`).`,
    );
  });
}

export function isOpenDevMode(): boolean {
  return configuredApiKeys().length === 0;
}
