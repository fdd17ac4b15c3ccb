'use client';
// One entry of Studio's inbox (docs/studio.md): the chat's own card for a decision waiting on a
// person, its links to the chat and the audit trail (for the caller's own sessions), and a
// countdown to its expiry. Its decisions go out of band (POST /api/hitl/{id}/{action}).
import { useQueryClient } from '@tanstack/react-query';
import { ClockIcon, MessageSquareIcon, ScrollTextIcon } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { ApprovalCard } from '../approval-card';
import type { PendingInterrupt } from '../hooks/useAgent';
import { interruptDetails } from '../hooks/agent-store';
import type { JsonSchema } from '../hooks/json-schema';
import type { HitlAction, InboxItem } from '@/server/contract';
import { LocalTime } from '../local-time';
import { formatFullLocalTime } from '../local-time-format';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { decide } from './studio-api';

export function InboxEntry({ item, agentName, inputSchema, focused }: { item: InboxItem; agentName: string; inputSchema?: JsonSchema; focused: boolean }) {
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
    ...(item.context ? { context: item.context } : {}),
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
