// Who may use the web app of a keyed server (docs/security.md, "Modes"): STACKBONE_WEB_ACCESS.
// `key` (the default): a browser has no identity until someone signs in to an account; the app is
// its team's (docs/users-and-roles.md, "Who may sign up"). `open`: any browser is made
// a guest on its first page load (server/auth/guest-sign-in.ts) and owns the conversations it
// starts — a public chat, where approvals of gated tools can still be kept for key holders
// (`approvers: 'key-holders'`).
// In open dev mode (no API keys) neither applies: every request is the local owner.
import { configuredApiKeys } from './api-keys';
import { setting } from '../config';

export type WebAccess = 'open' | 'key';

/** STACKBONE_WEB_ACCESS; a misspelled one stops the server at start (server/config, checkSettings). */
export function webAccess(): WebAccess {
  return setting('STACKBONE_WEB_ACCESS');
}

/** Whether browsers are guests without a key: keyed mode with STACKBONE_WEB_ACCESS=open. */
export function browsersWithoutKey(): boolean {
  return configuredApiKeys().length > 0 && webAccess() === 'open';
}
