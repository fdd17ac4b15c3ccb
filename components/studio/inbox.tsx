'use client';
// Studio's inbox (docs/studio.md): every decision waiting on a person, across sessions and
// agents, newest first, with the same card as the chat — Approve, Reject with a reason, Edit
// the arguments, answer or decline a question, Cancel — sent as out-of-band decisions. Live:
// a decision made elsewhere disappears, a new pause appears, through the Studio feed.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ClockIcon, FilterXIcon, InboxIcon, MessageSquareIcon, ScrollTextIcon } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useMemo, useRef, useState } from 'react';
import { displayNameOf } from '../agent-name';
import { ApprovalCard } from '../approval-card';
import type { PendingInterrupt } from '../hooks/useAgent';
import { interruptDetails } from '../hooks/agent-store';
import type { JsonSchema } from '../hooks/json-schema';
import type { AgentCard } from '@/server/web/agents';
import type { HitlAction, InboxItem } from '@/server/contract';
import { LocalTime } from '../local-time';
import { formatFullLocalTime } from '../local-time-format';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { Field, Select } from '../ui/field';
import { decide, fetchInbox, StudioError } from './studio-api';
import { StudioKeyForm } from './studio-key-form';
import { useStudioFeed } from './use-studio-feed';

type KindFilter = 'all' | 'tool_call' | 'input_required';

/** `focus`: the decision a link named (`/studio?decision=<id>`, docs/studio.md): it is scrolled to and marked. */
export function StudioInbox({ agents: cards, focus }: { agents: Pick<AgentCard, 'name' | 'displayName' | 'tools'>[]; focus?: string }) {
  useStudioFeed();
  const inbox = useQuery({ queryKey: ['studio', 'inbox'], queryFn: fetchInbox });
  const [agent, setAgent] = useState('all');
  const [kind, setKind] = useState<KindFilter>('all');
  const items = useMemo(
    () => (inbox.data ?? []).filter((item) => (agent === 'all' || item.agent === agent) && (kind === 'all' || item.reason === kind)),
    [inbox.data, agent, kind],
  );
  const agents = useMemo(() => [...new Set((inbox.data ?? []).map((item) => item.agent))].sort(), [inbox.data]);
  const agentName = (name: string) => displayNameOf(cards.find((card) => card.name === name) ?? { name });
  const filtered = agent !== 'all' || kind !== 'all';

  if (inbox.error instanceof StudioError && inbox.error.code === 'unauthorized') return <StudioKeyForm />;
  return (
    <section aria-labelledby="inbox-title" data-testid="studio-inbox">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <h2 id="inbox-title" className="flex items-center gap-2 text-lg font-semibold tracking-tight">
          Waiting on a person
          <Badge tone={items.length > 0 ? 'attention' : 'neutral'} data-testid="inbox-count">
            {inbox.data ? items.length : '…'}
          </Badge>
        </h2>
        <div className="grid grid-cols-2 gap-2 sm:flex sm:gap-3">
          <Field label="Agent" className="text-xs sm:w-44">
            <Select value={agent} onChange={(event) => setAgent(event.target.value)} data-testid="inbox-agent-filter">
              <option value="all">All agents</option>
              {agents.map((name) => (
                <option key={name} value={name}>
                  {agentName(name)}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Kind" className="text-xs sm:w-52">
            <Select value={kind} onChange={(event) => setKind(event.target.value as KindFilter)} data-testid="inbox-kind-filter">
              <option value="all">Approvals and questions</option>
              <option value="tool_call">Approvals</option>
              <option value="input_required">Questions</option>
            </Select>
          </Field>
        </div>
      </div>
      {inbox.error && !(inbox.error instanceof StudioError && inbox.error.code === 'unauthorized') && (
        <p className="mb-4 rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert">
          Could not load the inbox: {inbox.error.message}
        </p>
      )}
      {!inbox.data && !inbox.error && <p className="py-8 text-center text-sm text-muted-foreground">Loading the inbox…</p>}
      {inbox.data && items.length === 0 && (
        <div
          className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-10 text-center text-sm text-muted-foreground"
          data-testid="inbox-empty"
        >
          <InboxIcon className="size-6" aria-hidden />
          {filtered && inbox.data.length > 0 ? (
            <>
              <p>Nothing waiting matches these filters.</p>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => {
                  setAgent('all');
                  setKind('all');
                }}
              >
                <FilterXIcon aria-hidden />
                Show everything
              </Button>
            </>
          ) : (
            <>
              <p className="font-medium text-foreground">Nothing is waiting.</p>
              <p className="max-w-sm text-pretty">
                New approvals and questions appear here as soon as an agent pauses. To see one,{' '}
                <Link href="/" className="font-medium text-primary underline-offset-4 hover:underline">
                  start a conversation
                </Link>{' '}
                and ask for something that needs approval.
              </p>
            </>
          )}
        </div>
      )}
      <ol className="space-y-4">
        {items.map((item) => (
          <li key={item.id}>
            <InboxEntry
              item={item}
              focused={item.id === focus}
              agentName={agentName(item.agent)}
              inputSchema={item.toolName ? cards.find((card) => card.name === item.agent)?.tools[item.toolName]?.inputSchema : undefined}
            />
          </li>
        ))}
      </ol>
    </section>
  );
}

function InboxEntry({ item, agentName, inputSchema, focused }: { item: InboxItem; agentName: string; inputSchema?: JsonSchema; focused: boolean }) {
  const queryClient = useQueryClient();
  const entry = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focused) entry.current?.scrollIntoView({ block: 'center' });
  }, [focused]);
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
      ref={entry}
      className={cn('overflow-hidden rounded-lg border bg-card text-card-foreground shadow-xs', focused && 'ring-2 ring-primary')}
      data-testid="inbox-item"
      data-focused={focused || undefined}
      data-interrupt-id={item.id}
      data-session-id={item.sessionId}
      data-agent={item.agent}
      aria-label={`${agentName}: ${item.message}`}
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b bg-muted/50 px-3 py-2 sm:px-4">
        <span className="flex min-w-0 items-center gap-2">
          <span className="truncate text-sm font-semibold">{agentName}</span>
          <Badge>{item.reason === 'input_required' ? 'Question' : 'Approval'}</Badge>
        </span>
        <span className="text-xs text-muted-foreground">
          Asked <LocalTime iso={item.createdAt} />
        </span>
        {item.expiresAt && <Countdown at={item.expiresAt} />}
        <span className="flex w-full items-center gap-1 sm:ml-auto sm:w-auto">
          {item.ownSession ? (
            <>
              <Button asChild variant="ghost" size="sm" className="-ml-2 sm:ml-0">
                <Link href={`/agents/${encodeURIComponent(item.agent)}/${encodeURIComponent(item.sessionId)}`} data-testid="inbox-chat-link">
                  <MessageSquareIcon aria-hidden />
                  Open chat
                </Link>
              </Button>
              <Button asChild variant="ghost" size="sm">
                <Link href={`/studio/sessions/${encodeURIComponent(item.sessionId)}`} data-testid="inbox-audit-link">
                  <ScrollTextIcon aria-hidden />
                  Audit trail
                </Link>
              </Button>
            </>
          ) : (
            // A customer's conversation: the desk decides the call, but the thread is the customer's (docs/security.md, "Approvers").
            <span className="text-xs text-muted-foreground" data-testid="inbox-foreign">
              In a customer&apos;s conversation
            </span>
          )}
        </span>
      </header>
      <div className="p-3 sm:p-4">
        <ApprovalCard interrupt={interrupt} busy={busy} inputSchema={inputSchema} />
        {error && (
          <p
            className="mt-3 rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive"
            role="alert"
            data-testid="inbox-error"
          >
            {error}
          </p>
        )}
      </div>
    </article>
  );
}

/** An inbox item in the shape the chat's card takes; its decisions go out of band, one at a time. */
function asPendingInterrupt(
  item: InboxItem,
  send: (action: HitlAction, body?: { editedArgs?: unknown; payload?: unknown; reason?: string }) => Promise<void>,
): PendingInterrupt {
  const metadata = {
    toolName: item.toolName,
    args: item.args,
    description: item.description,
    allowedDecisions: item.allowedDecisions,
    url: item.url,
    ...(item.quorum ? { quorum: item.quorum, votes: item.votes ?? [] } : {}),
    // Only the requester's own inbox shows the card without its approve buttons.
    ...(item.ownSession && item.requesterMayApprove === false ? { requesterMayApprove: false } : {}),
  };
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
    <Badge tone="attention" data-testid="inbox-countdown" title={`Expires ${formatFullLocalTime(new Date(at))}`}>
      <ClockIcon aria-hidden />
      {text}
    </Badge>
  );
}
