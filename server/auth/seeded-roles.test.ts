// STACKBONE_ROLES and STACKBONE_ADMIN_EMAILS as an operator writes them (docs/users-and-roles.md, "Roles").
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkSeededRoles, seededRolesOf } from './seeded-roles';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('roles given by the configuration', () => {
  it('gives each address its roles, whatever the case and spacing, and admins theirs', () => {
    vi.stubEnv('STACKBONE_ROLES', ' finance = Alice@Example.com, bob@example.com ; ops=carol@example.com;finance=dana@example.com');
    vi.stubEnv('STACKBONE_ADMIN_EMAILS', 'alice@example.com');
    expect(seededRolesOf('ALICE@example.com').sort()).toEqual(['admin', 'finance']);
    expect(seededRolesOf('dana@example.com')).toEqual(['finance']);
    expect(seededRolesOf('carol@example.com')).toEqual(['ops']);
    expect(seededRolesOf('mallory@example.com')).toEqual([]);
  });

  it('stops the server on an entry that does not read as written', () => {
    vi.stubEnv('STACKBONE_ROLES', 'finance alice@example.com');
    expect(() => checkSeededRoles()).toThrow(/STACKBONE_ROLES: "finance alice@example.com" is not "role=address,address"/);
    vi.stubEnv('STACKBONE_ROLES', 'finance=alice');
    expect(() => checkSeededRoles()).toThrow(/"alice" \(in the "finance" entry\) is not an email address/);
    vi.stubEnv('STACKBONE_ROLES', 'fin ance=alice@example.com');
    expect(() => checkSeededRoles()).toThrow(/not "role=address,address"/);
  });
});
