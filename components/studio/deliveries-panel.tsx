'use client';
// Studio's deliveries (docs/approvals.md, "Decision webhooks"): where the notices of the caller's
// sessions went — each notice on each channel, in words a person reads: what it was about, its
// conversation, and whether it was sent, kept here (no transport configured), is being retried or
// failed, with attempts, next attempt and last error — and Retry now for one failing or given up.
// On a phone the table keeps what matters (the notice and its status) and folds the rest into
// the notice. It reads the outbox every few seconds: deliveries change by themselves.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArchiveIcon, CheckIcon, CircleAlertIcon, ClockIcon, RotateCwIcon, SendIcon, XIcon } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import type { DeliveryItem } from '@/server/contract';
import { LocalTime } from '../local-time';
import { Badge, type BadgeTone } from '../ui/badge';
import { Button } from '../ui/button';
import { fetchDeliveries, retryDelivery, StudioError } from './studio-api';

const REFRESH_MS = 5_000;

type ShownStatus = 'sent' | 'kept' | 'sending' | 'retrying' | 'failed' | 'skipped';

const STATUS: Record<ShownStatus, { label: string; tone: BadgeTone; icon: typeof CheckIcon }> = {
  sent: { label: 'Sent', tone: 'success', icon: CheckIcon },
  kept: { label: 'Kept here', tone: 'neutral', icon: ArchiveIcon },
  sending: { label: 'Sending', tone: 'progress', icon: ClockIcon },
  retrying: { label: 'Retrying', tone: 'attention', icon: CircleAlertIcon },
  failed: { label: 'Failed', tone: 'danger', icon: XIcon },
  skipped: { label: 'Skipped', tone: 'neutral', icon: XIcon },
};

/** What became of a delivery, as a person says it: an email kept for want of SMTP was not sent. */
function shownStatus(delivery: DeliveryItem): ShownStatus {
  if (delivery.kept) return 'kept';
  return ({ delivered: 'sent', pending: 'sending', failing: 'retrying', gave_up: 'failed', skipped: 'skipped' } as const)[delivery.status];
}

/** What a notice was about (its type is in its title, for whoever reads the webhook). */
const NOTICE: Record<DeliveryItem['noticeType'], string> = {
  'interrupt.opened': 'Approval requested',
  'interrupt.decided': 'Approval decided',
  'interrupt.expired': 'Approval expired',
  'interrupt.escalated': 'Approval escalated',
  'interrupt.reminder': 'Reminder to decide',
  'run.finished': 'Run finished',
  'run.failed': 'Run failed',
};

/** Columns a phone leaves out (the notice cell says the channel; the rest is detail). */
const WIDE = 'hidden md:table-cell';

export function DeliveriesPanel() {
  const deliveries = useQuery({ queryKey: ['studio', 'deliveries'], queryFn: fetchDeliveries, refetchInterval: REFRESH_MS });
  // Studio's inbox asks for a key already; this panel says nothing until there is one.
  if (deliveries.error instanceof StudioError && deliveries.error.code === 'unauthorized') return null;
  return (
    <section aria-labelledby="deliveries-title" className="mt-10" data-testid="studio-deliveries">
      <h2 id="deliveries-title" className="mb-1 flex items-center gap-2 text-lg font-semibold tracking-tight">
        <SendIcon className="size-4" aria-hidden />
        Deliveries
      </h2>
      <p className="mb-4 text-sm text-muted-foreground">Notices of approvals and runs sent to your webhook and other channels, newest first.</p>
      {deliveries.error && (
        <p className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert">
          Could not load the deliveries: {deliveries.error.message}
        </p>
      )}
      {deliveries.data?.length === 0 && (
        <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground" data-testid="deliveries-empty">
          Nothing sent yet. Set STACKBONE_WEBHOOK_URL and STACKBONE_WEBHOOK_SECRET to have approvals and runs POSTed to you.
        </p>
      )}
      {deliveries.data && deliveries.data.length > 0 && (
        // Relative: the table, and its screen-reader-only header (absolutely placed), scroll inside this
        // box on a phone instead of widening the page.
        <div
          role="region"
          aria-label="Deliveries"
          tabIndex={0}
          className="relative overflow-x-auto rounded-lg border focus-visible:outline-2 focus-visible:outline-ring"
        >
          <table className="w-full text-left text-sm">
            <thead className="bg-muted/50 text-xs text-muted-foreground">
              <tr>
                <th className="px-3 py-2 font-medium">Notice</th>
                <th className="px-3 py-2 font-medium">Status</th>
                <th className={`${WIDE} px-3 py-2 font-medium`}>Channel</th>
                <th className={`${WIDE} px-3 py-2 font-medium`}>Attempts</th>
                <th className={`${WIDE} px-3 py-2 font-medium`}>Next attempt</th>
                <th className={`${WIDE} px-3 py-2 font-medium`}>Last error</th>
                <th className="px-3 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {deliveries.data.map((delivery) => (
                <DeliveryRow key={delivery.id} delivery={delivery} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function DeliveryRow({ delivery }: { delivery: DeliveryItem }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = shownStatus(delivery);
  const status = STATUS[shown];
  const open = delivery.status === 'pending' || delivery.status === 'failing';

  async function retry() {
    setBusy(true);
    setError(null);
    try {
      await retryDelivery(delivery.id);
      await queryClient.invalidateQueries({ queryKey: ['studio', 'deliveries'] });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <tr data-testid="delivery-row" data-status={delivery.status} data-shown-status={shown}>
      <td className="px-3 py-2 align-top">
        <div className="font-medium" title={delivery.noticeType} data-testid="delivery-notice">
          {NOTICE[delivery.noticeType] ?? delivery.noticeType}
        </div>
        <div className="text-xs text-muted-foreground">
          <LocalTime iso={delivery.createdAt} /> ·{' '}
          <Link href={`/studio/sessions/${encodeURIComponent(delivery.sessionId)}`} className="underline-offset-2 hover:underline" title={delivery.sessionId}>
            its conversation
          </Link>
        </div>
        <div className="text-xs text-muted-foreground md:hidden">
          {delivery.channel} → <span className="break-all">{delivery.target}</span>
        </div>
        {delivery.kept && (
          <div className="mt-1 text-xs" data-testid="kept-email" data-decides={delivery.kept.decides}>
            <div className="font-medium">{delivery.kept.subject}</div>
            <div className="text-muted-foreground">
              Not sent: no SMTP server is configured.{' '}
              {delivery.kept.decides ? 'Its Approve and Reject links are its recipient’s alone, so they are not shown here.' : 'It was for their information.'}
            </div>
            {delivery.kept.file && (
              <div className="break-all text-muted-foreground" data-testid="kept-email-file">
                On this computer: <code className="font-mono">{delivery.kept.file}</code>
              </div>
            )}
          </div>
        )}
        {delivery.lastError && <div className="mt-1 text-xs text-muted-foreground md:hidden">Last error: {delivery.lastError}</div>}
      </td>
      <td className="px-3 py-2 align-top">
        <Badge tone={status.tone}>
          <status.icon aria-hidden />
          {status.label}
        </Badge>
      </td>
      <td className={`${WIDE} px-3 py-2 align-top`}>
        <div>{delivery.channel}</div>
        <div className="max-w-56 truncate text-xs text-muted-foreground" title={delivery.target}>
          {delivery.target}
        </div>
      </td>
      <td className={`${WIDE} px-3 py-2 align-top tabular-nums`}>{delivery.attempts}</td>
      <td className={`${WIDE} px-3 py-2 align-top text-xs`}>{open ? <LocalTime iso={delivery.nextAttemptAt} seconds /> : '—'}</td>
      <td className={`${WIDE} px-3 py-2 align-top text-xs text-muted-foreground`}>{delivery.lastError ?? '—'}</td>
      <td className="px-3 py-2 text-right align-top">
        {(delivery.status === 'failing' || delivery.status === 'gave_up') && (
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => void retry()}>
            <RotateCwIcon aria-hidden />
            Retry now
          </Button>
        )}
        {error && (
          <span className="block text-left text-xs text-destructive" role="alert">
            {error}
          </span>
        )}
      </td>
    </tr>
  );
}
