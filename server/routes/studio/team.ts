// GET /api/studio/team and POST /api/studio/team/roles (docs/users-and-roles.md, "Roles"): the
// signed-up users and their roles, and an admin giving or taking one. Studio's Team page and
// `stackbone users` call them.
import { z } from 'zod';
import { listTeam, setRole } from '../../auth/user-roles';
import { mayManageTeam } from '../../auth/team-admin';
import { ROLE_WORD } from '../../auth/seeded-roles';
import { readJsonBody } from '../../http/body';
import { errorResponse, HttpError } from '../../http/errors';
import { resolveCaller } from '../../identity/owner';
import { describeIssue } from '../../runtime';
import type { TeamList } from '../../contract';
import { jsonResponse } from '../../http/small-answers';

const RoleChangeBody = z
  .object({
    email: z.string().trim().email(),
    role: z.string().regex(ROLE_WORD, 'a role is letters, digits, "_", ".", "-"; at most 64'),
    remove: z.boolean().optional(),
  })
  .strict();

async function admin(request: Request) {
  const caller = await resolveCaller(request, { member: true });
  if (!mayManageTeam(caller))
    throw new HttpError('admin_required', 'Only an admin gives roles: a user with the admin role (STACKBONE_ADMIN_EMAILS), or a service key.');
  return caller;
}

export async function handleTeamList(request: Request): Promise<Response> {
  try {
    await admin(request);
    const members = await listTeam();
    return jsonResponse({ members: members.map((member) => ({ ...member, createdAt: member.createdAt.toISOString() })) } satisfies TeamList, {
      headers: { 'Cache-Control': 'no-store' },
    });
  } catch (error) {
    return errorResponse(error, 'team request');
  }
}

export async function handleRoleChange(request: Request): Promise<Response> {
  try {
    await admin(request);
    const parsed = RoleChangeBody.safeParse(await readJsonBody(request));
    if (!parsed.success) throw new HttpError('invalid_request', `Invalid role change: ${describeIssue(parsed.error, '(body)')} ({email, role, remove?}).`);
    const { email, role, remove = false } = parsed.data;
    if (!(await setRole(email, role, remove))) throw new HttpError('not_found', `No user signed up as ${email}.`, { what: 'user' });
    const member = (await listTeam()).find((entry) => entry.email === email.toLowerCase());
    return jsonResponse({ email, roles: member?.roles ?? [] });
  } catch (error) {
    return errorResponse(error, 'role change');
  }
}
