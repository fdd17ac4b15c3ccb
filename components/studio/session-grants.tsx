'use client';
// A session's standing approvals in Studio (docs/approvals.md, "Scoped grants"):
// each grant an approver made, what it allows and until when, with a Revoke button. Revoked and
// ended grants are not listed; the audit trail keeps them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRoundIcon } from 'lucide-react';
import type { GrantListing } from '@/server/runtime';
import { LocalTime } from '../local-time';
import { Button } from '../ui/button';
import { studioFetch } from './studio-api';

async function fetchGrants(sessionId: string): Promise<GrantListing[]> {
  const { grants } = (await (await studioFetch(`/api/sessions/${encodeURIComponent(sessionId)}/grants`)).json()) as { grants: GrantListing[] };
  return grants;
}

function reach(grant: GrantListing['grant']) {
  if (grant.scope === 'session') return <>for the rest of this conversation</>;
  if (grant.scope === 'time') return <>until {grant.expiresAt ? <LocalTime iso={grant.expiresAt} /> : 'its end'}</>;
  return <>for calls with {JSON.stringify(grant.match)}</>;
}

export function SessionGrants({ sessionId }: { sessionId: string }) {
  const queryClient = useQueryClient();
  const key = ['studio', 'grants', sessionId];
  const grants = useQuery({ queryKey: key, queryFn: () => fetchGrants(sessionId) });
  const revoke = useMutation({
    mutationFn: (grantId: string) => studioFetch(`/api/sessions/${encodeURIComponent(sessionId)}/grants/${encodeURIComponent(grantId)}`, { method: 'DELETE' }),
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: key }), queryClient.invalidateQueries({ queryKey: ['studio', 'audit', sessionId] })]),
  });
  const active = (grants.data ?? []).filter((listing) => listing.active);
  if (active.length === 0) return null;
  return (
    <section aria-labelledby="grants-title" className="mb-6 rounded-lg border bg-card p-4 text-card-foreground shadow-xs">
      <h3 id="grants-title" className="mb-2 flex items-center gap-2 text-sm font-semibold">
        <KeyRoundIcon className="size-4" aria-hidden />
        Allowed without asking
      </h3>
      <ul className="space-y-2" data-testid="grants-list">
        {active.map(({ grant }) => (
          <li key={grant.id} className="flex flex-wrap items-center gap-2 text-sm" data-testid="grant-item" data-grant-id={grant.id}>
            <span className="min-w-0 flex-1">
              <span className="font-medium">{grant.toolName}</span> {reach(grant)}
            </span>
            <Button variant="secondary" size="sm" data-testid="revoke-grant-button" disabled={revoke.isPending} onClick={() => revoke.mutate(grant.id)}>
              Revoke
            </Button>
          </li>
        ))}
      </ul>
      {revoke.error && (
        <p className="mt-2 text-xs text-destructive" role="alert">
          Could not revoke: {revoke.error.message}
        </p>
      )}
    </section>
  );
}
