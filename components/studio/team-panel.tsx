'use client';
// Studio → Team (docs/users-and-roles.md, "Roles"): the signed-up users and their roles, and an
// admin giving or taking one. A role counts from the next decision its holder makes.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { UsersRoundIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { LocalTime } from '../local-time';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Field, Input } from '../ui/field';
import { changeRole, fetchTeam, StudioError } from './studio-api';

export function TeamPanel() {
  const queryClient = useQueryClient();
  // A refusal (not an admin) is an answer, not a failure to try again.
  const team = useQuery({
    queryKey: ['studio', 'team'],
    queryFn: fetchTeam,
    retry: (count, error) => !(error instanceof StudioError && error.status < 500) && count < 3,
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('');
  const change = useMutation({
    mutationFn: changeRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['studio', 'team'] }),
  });
  const refused = team.error instanceof StudioError && (team.error.code === 'admin_required' || team.error.code === 'unauthorized');
  return (
    <section aria-labelledby="team-title" data-testid="studio-team">
      <h2 id="team-title" className="mb-1 flex items-center gap-2 text-lg font-semibold tracking-tight">
        <UsersRoundIcon className="size-4" aria-hidden />
        Roles
      </h2>
      <p className="mb-4 text-sm text-muted-foreground">
        People who signed up, and their roles. Approval policies name roles: <code>approvers: [&apos;role:finance&apos;]</code>.
      </p>
      {refused && team.error && (
        <p className="rounded-md border px-3 py-2 text-sm text-muted-foreground" role="status">
          {team.error.message}
        </p>
      )}
      {team.error && !refused && (
        <p className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert">
          Could not load the team: {team.error.message}
        </p>
      )}
      {team.data && (
        <>
          <form
            className="mb-4 grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end"
            data-testid="team-give-role"
            onSubmit={(event) => {
              event.preventDefault();
              change.mutate({ email: email.trim(), role: role.trim() }, { onSuccess: () => setRole('') });
            }}
          >
            <Field label="Email">
              <Input type="email" value={email} onChange={(event) => setEmail(event.target.value)} list="team-emails" data-testid="team-email" />
            </Field>
            <datalist id="team-emails">
              {team.data.map((member) => (
                <option key={member.email} value={member.email} />
              ))}
            </datalist>
            <Field label="Role">
              <Input value={role} onChange={(event) => setRole(event.target.value)} placeholder="finance" data-testid="team-role" />
            </Field>
            <Button type="submit" variant="primary" disabled={!email.trim() || !role.trim() || change.isPending}>
              Give role
            </Button>
          </form>
          {change.error && (
            <p
              className="mb-4 rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive"
              role="alert"
              data-testid="team-error"
            >
              {change.error.message}
            </p>
          )}
          {team.data.length === 0 ? (
            <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">Nobody has signed up yet.</p>
          ) : (
            <ul className="divide-y rounded-lg border" aria-label="Team members">
              {team.data.map((member) => (
                <li key={member.email} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm" data-testid="team-member">
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium">{member.email}</span>
                    <span className="text-xs text-muted-foreground">
                      {member.name} · joined <LocalTime iso={member.createdAt} />
                    </span>
                  </span>
                  {member.roles.length === 0 && <span className="text-xs text-muted-foreground">no roles</span>}
                  {member.roles.map((held) => (
                    <Badge key={held} tone="neutral" className="gap-1">
                      {held}
                      <button
                        type="button"
                        className="rounded-sm hover:text-foreground"
                        aria-label={`Take ${held} from ${member.email}`}
                        onClick={() => change.mutate({ email: member.email, role: held, remove: true })}
                      >
                        <XIcon className="size-3" aria-hidden />
                      </button>
                    </Badge>
                  ))}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
