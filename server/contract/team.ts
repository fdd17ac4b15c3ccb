// Studio's Team page and `stackbone users` (docs/users-and-roles.md, "Roles"): the signed-up users
// with their roles, and the change an admin makes.

export interface TeamMemberItem {
  email: string;
  name: string;
  roles: string[];
  /** ISO 8601. */
  createdAt: string;
}

export interface TeamList {
  members: TeamMemberItem[];
}

/** POST /api/studio/team/roles: give (or, with `remove`, take) a role. */
export interface RoleChange {
  email: string;
  role: string;
  remove?: boolean;
}
