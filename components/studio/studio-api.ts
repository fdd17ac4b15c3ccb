// Studio's calls to the server (docs/studio.md): the inbox and decisions through /api/hitl, the
// audit trail, the live feed, the outbox's deliveries and the approval metrics through /api/studio. In keyed mode the browser is signed in
// with an API key (the app's cookie acts as that key); in open dev mode none is needed.
import {
  INBOX_PAGE_SIZE,
  type ApprovalMetrics,
  type DeliveryItem,
  type DeliveryList,
  type HitlAction,
  type InboxFilter,
  type InboxList,
  type RoleChange,
  type TeamList,
  type TeamMemberItem,
} from '@/server/contract';
import type { AuditTrail } from '@/server/web/audit-trail';

/** A refused request, with the server's code (`unauthorized` asks for a key). */
export class StudioError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'StudioError';
  }
}

export async function studioFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, {
    ...init,
    // The label names Studio in the audit trail of open dev mode; in keyed mode the server knows it from the cookie.
    headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), 'x-stackbone-client': 'studio', ...init.headers },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
    throw new StudioError(body.error?.message ?? `HTTP ${response.status}`, response.status, body.error?.code);
  }
  return response;
}

/** A page of the inbox (docs/hitl.md, "Paging the inbox"): `cursor` is the page before's nextCursor, null for the first. */
export async function fetchInboxPage(filter: InboxFilter, cursor: string | null): Promise<InboxList> {
  // The server's default page, 50; "Load more" asks for the next as many.
  const query = new URLSearchParams({ filter, limit: String(INBOX_PAGE_SIZE.default), ...(cursor ? { cursor } : {}) });
  return (await studioFetch(`/api/hitl?${query}`)).json() as Promise<InboxList>;
}

export async function fetchAuditTrail(sessionId: string): Promise<AuditTrail> {
  return (await studioFetch(`/api/studio/sessions/${encodeURIComponent(sessionId)}`)).json() as Promise<AuditTrail>;
}

export async function decide(interruptId: string, action: HitlAction, body: { editedArgs?: unknown; payload?: unknown; reason?: string } = {}): Promise<void> {
  await studioFetch(`/api/hitl/${encodeURIComponent(interruptId)}/${action}`, { method: 'POST', body: JSON.stringify(body) });
}

export async function fetchDeliveries(): Promise<DeliveryItem[]> {
  const { deliveries } = (await (await studioFetch('/api/studio/deliveries')).json()) as DeliveryList;
  return deliveries;
}

export async function retryDelivery(deliveryId: string): Promise<DeliveryItem> {
  return (await studioFetch(`/api/studio/deliveries/${encodeURIComponent(deliveryId)}/retry`, { method: 'POST' })).json() as Promise<DeliveryItem>;
}

export async function fetchTeam(): Promise<TeamMemberItem[]> {
  const { members } = (await (await studioFetch('/api/studio/team')).json()) as TeamList;
  return members;
}

export async function changeRole(change: RoleChange): Promise<{ email: string; roles: string[] }> {
  return (await studioFetch('/api/studio/team/roles', { method: 'POST', body: JSON.stringify(change) })).json() as Promise<{ email: string; roles: string[] }>;
}

/** How the caller's approvals are going (docs/studio.md, "Approval metrics"). */
export async function fetchApprovalMetrics(): Promise<ApprovalMetrics> {
  return (await studioFetch('/api/studio/approval-metrics')).json() as Promise<ApprovalMetrics>;
}
