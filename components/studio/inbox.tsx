'use client';
// Studio's inbox (docs/studio.md): every decision waiting on a person, across sessions and
// agents, newest first, with the same card as the chat — Approve, Reject with a reason, Edit
// the arguments, answer or decline a question, Cancel — sent as out-of-band decisions. Live:
// a decision made elsewhere disappears, a new pause appears, through the Studio feed.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useMemo, useState } from 'react';
import { ApprovalCard } from '../approval-card';
import type { PendingInterrupt } from '../hooks/useAgent';
import { interruptDetails } from '../hooks/agent-store';
import type { HitlAction, InboxItem } from '@/server/contract';
import { decide, fetchInbox, StudioError } from './studio-api';
import { StudioKeyForm } from './studio-key-form';
import { useStudioFeed } from './use-studio-feed';

type KindFilter = 'all' | 'tool_call' | 'input_required';

export function StudioInbox() {
  useStudioFeed();
  const inbox = useQuery({ queryKey: ['studio', 'inbox'], queryFn: fetchInbox });
  const [agent, setAgent] = useState('all');
  const [kind, setKind] = useState<KindFilter>('all');
  const items = useMemo(
    () => (inbox.data ?? []).filter((item) => (agent === 'all' || item.agent === agent) && (kind === 'all' || item.reason === kind)),
    [inbox.data, agent, kind],
  );
  const agents = useMemo(() => [...new Set((inbox.data ?? []).map((item) => item.agent))].sort(), [inbox.data]);

  if (inbox.error instanceof StudioError && inbox.error.code === 'unauthorized') return <StudioKeyForm />;
  return (
    <section className="studio-inbox" aria-labelledby="inbox-title" data-testid="studio-inbox">
      <div className="studio-toolbar">
        <h2 id="inbox-title" className="studio-section-title">
          Waiting on a person{' '}
          <span className="studio-count" data-testid="inbox-count">
            {inbox.data ? items.length : '…'}
          </span>
        </h2>
        <label className="studio-filter">
          <span>Agent</span>
          <select value={agent} onChange={(event) => setAgent(event.target.value)} data-testid="inbox-agent-filter">
            <option value="all">All agents</option>
            {agents.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="studio-filter">
          <span>Kind</span>
          <select value={kind} onChange={(event) => setKind(event.target.value as KindFilter)} data-testid="inbox-kind-filter">
            <option value="all">Approvals and questions</option>
            <option value="tool_call">Approvals</option>
            <option value="input_required">Questions</option>
          </select>
        </label>
      </div>
      {inbox.error && !(inbox.error instanceof StudioError && inbox.error.code === 'unauthorized') && (
        <p className="chat-error" role="alert">
          Could not load the inbox: {inbox.error.message}
        </p>
      )}
      {inbox.data && items.length === 0 && (
        <p className="studio-empty" data-testid="inbox-empty">
          Nothing is waiting. New approvals and questions appear here as soon as an agent pauses.
        </p>
      )}
      <ol className="studio-list">
        {items.map((item) => (
          <li key={item.id}>
            <InboxEntry item={item} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function InboxEntry({ item }: { item: InboxItem }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function send(action: HitlAction, body: { editedArgs?: unknown; payload?: unknown; reason?: string } = {}) {
    setBusy(true);
    setError(null);
    try {
      await decide(item.id, action, body);
      await queryClient.invalidateQueries({ queryKey: ['studio'] });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      setBusy(false);
    }
  }

  const interrupt = asPendingInterrupt(item, send);
  return (
    <article
      className="studio-entry"
      data-testid="inbox-item"
      data-interrupt-id={item.id}
      data-session-id={item.sessionId}
      data-agent={item.agent}
      aria-label={`${item.agent}: ${item.message}`}
    >
      <div className="studio-entry-meta">
        <span className="studio-agent">{item.agent}</span>
        <span>
          asked <time dateTime={item.createdAt}>{new Date(item.createdAt).toLocaleTimeString()}</time>
        </span>
        {item.expiresAt && <Countdown at={item.expiresAt} />}
        {item.ownSession ? (
          <>
            <Link href={`/agents/${encodeURIComponent(item.agent)}/${encodeURIComponent(item.sessionId)}`} data-testid="inbox-chat-link">
              Open chat
            </Link>
            <Link href={`/studio/sessions/${encodeURIComponent(item.sessionId)}`} data-testid="inbox-audit-link">
              Audit trail
            </Link>
          </>
        ) : (
          // A customer's conversation: the desk decides the call, but the thread is the customer's (docs/security.md, "Approvers").
          <span className="muted" data-testid="inbox-foreign">
            In a customer&apos;s conversation
          </span>
        )}
      </div>
      <ApprovalCard interrupt={interrupt} busy={busy} />
      {error && (
        <p className="chat-error" role="alert" data-testid="inbox-error">
          {error}
        </p>
      )}
    </article>
  );
}

/** An inbox item in the shape the chat's card takes; its decisions go out of band, one at a time. */
function asPendingInterrupt(
  item: InboxItem,
  send: (action: HitlAction, body?: { editedArgs?: unknown; payload?: unknown; reason?: string }) => Promise<void>,
): PendingInterrupt {
  const metadata = { toolName: item.toolName, args: item.args, description: item.description, allowedDecisions: item.allowedDecisions, agent: item.agent };
  const interrupt = {
    id: item.id,
    reason: item.reason,
    message: item.message,
    toolCallId: item.toolCallId,
    responseSchema: item.responseSchema,
    ...(item.expiresAt ? { expiresAt: item.expiresAt } : {}),
    metadata,
  };
  return {
    ...interrupt,
    ...interruptDetails(interrupt),
    resolution: null,
    resolveInterrupt: (approved, options = {}) =>
      approved
        ? send('approve', {
            ...(options.editedArgs !== undefined ? { editedArgs: options.editedArgs } : {}),
            ...(options.payload !== undefined ? { payload: options.payload } : {}),
          })
        : send('reject', { ...(options.reason ? { reason: options.reason } : {}), ...(options.payload !== undefined ? { payload: options.payload } : {}) }),
    cancel: () => send('cancel'),
    clearResolution: () => undefined,
    decline: (reason) => send('reject', reason?.trim() ? { reason: reason.trim() } : {}),
  };
}

/** Time left before the decision takes its default action, ticking each second. */
function Countdown({ at }: { at: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Date.parse(at) - now);
  const hours = Math.floor(left / 3_600_000);
  const minutes = Math.floor((left % 3_600_000) / 60_000);
  const seconds = Math.floor((left % 60_000) / 1000);
  const text = left === 0 ? 'expiring…' : hours > 0 ? `${hours} h ${minutes} min left` : minutes > 0 ? `${minutes} min ${seconds} s left` : `${seconds} s left`;
  return (
    <span className="studio-countdown" data-testid="inbox-countdown" title={`Expires ${new Date(at).toLocaleString()}`}>
      {text}
    </span>
  );
}
