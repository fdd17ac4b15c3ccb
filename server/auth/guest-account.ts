// A guest who signs up keeps what they had (docs/users-and-roles.md, "Guests"). A conversation's
// id holds its owner's id (runtime/session/session-id.ts), so rather than re-key every thread,
// upload and pending approval, the new account takes the guest's owner id as its own: one row
// written, nothing moved, nothing a crash could leave half-done. Better Auth deletes the guest
// user afterwards; its owner id lives on in the account.
import { randomUUID } from 'node:crypto';
import { legacyBrowserId } from './legacy-browser-cookie';
import { withAppDatabase } from '../store/app-database';
import { BROWSER_OWNER_PREFIX } from '../store/backend-rules';
import { userOwnerId } from '../store/prisma-people';

/** How recent an account is that a guest's sign-up just made. */
const NEW_ACCOUNT_MS = 10 * 60_000;

/**
 * Called by Better Auth when a browser signed in as a guest signs up or in. A new account (it
 * owns nothing yet) adopts the guest's owner id. An existing account keeps its own: what the
 * guest started stays under the guest's id (docs/users-and-roles.md says so).
 */
export async function adoptGuest(guestId: string, userId: string): Promise<void> {
  await withAppDatabase(async (db) => {
    const [guest, user] = await Promise.all([
      db.user.findUnique({ where: { id: guestId }, select: { id: true, ownerId: true } }),
      db.user.findUnique({ where: { id: userId }, select: { ownerId: true, createdAt: true, sessions: { select: { id: true } } } }),
    ]);
    if (!guest || !user || user.ownerId) return;
    // Made just now, with no session but the one just opened: a sign-up, not an account used before.
    if (Date.now() - user.createdAt.getTime() > NEW_ACCOUNT_MS || user.sessions.length > 1) return;
    const ownerId = userOwnerId(guest);
    await db.$transaction([db.user.update({ where: { id: guestId }, data: { ownerId: null } }), db.user.update({ where: { id: userId }, data: { ownerId } })]);
  });
}

/**
 * The owner id a new guest is made with: `browser:<id>`, the kind the open web's limits and the
 * desk's view of customers' approvals read (docs/security.md, "The open web"). A browser that
 * chatted under its own identity cookie before guests were Better Auth's (its `stackbone_id`)
 * keeps that id, and so its threads; any other gets a new one.
 */
export async function guestOwnerId(headers: Headers | undefined): Promise<string> {
  const id = legacyBrowserId(headers);
  if (id) {
    const ownerId = `${BROWSER_OWNER_PREFIX}${id}`;
    // An owner id is one person's: a browser whose id an account took already starts afresh.
    const taken = await withAppDatabase((db) => db.user.findUnique({ where: { ownerId }, select: { id: true } }));
    if (!taken) return ownerId;
  }
  return `${BROWSER_OWNER_PREFIX}${randomUUID()}`;
}

/**
 * At sign-up, a browser that chatted under its own identity cookie (keyed mode with
 * STACKBONE_WEB_ACCESS=open; legacy-browser-cookie.ts) hands its owner id to the new
 * account: what that browser started is the account's. This is also how conversations made
 * before accounts existed move to a person (docs/users-and-roles.md, "Upgrading").
 */
export async function adoptBrowserGuest(userId: string, headers: Headers | undefined): Promise<void> {
  const id = legacyBrowserId(headers);
  if (!id) return;
  const ownerId = `${BROWSER_OWNER_PREFIX}${id}`;
  await withAppDatabase(async (db) => {
    // An owner id is one person's: a second account made from the same browser starts afresh.
    if (await db.user.findUnique({ where: { ownerId }, select: { id: true } })) return;
    await db.user.update({ where: { id: userId }, data: { ownerId } });
  });
}
