import { CircleCheckIcon, CircleXIcon, ExternalLinkIcon, LinkIcon, ShieldQuestionIcon, TriangleAlertIcon } from 'lucide-react';
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { ApprovalContext } from '@/components/approval-context';
import { labelledFields } from '@/components/format-value';
import { LocalTime } from '@/components/local-time';
import type { JsonSchema } from '@/components/hooks/json-schema';
import { PageFrame } from '@/components/page-frame';
import { Button } from '@/components/ui/button';
import { Field, Textarea } from '@/components/ui/field';
import { findAgent } from '@/server/agents';
import { describeDecision, readLink, Refusal, type LinkView } from '@/server/runtime';
import { getStore } from '@/server/store';

export const dynamic = 'force-dynamic';
// A link's page is for its recipient: no index, and no referrer carrying the token to another site
// (same-origin: this site's own form post still says where it comes from, as the origin check needs).
export const metadata: Metadata = { title: 'Decide a request', robots: { index: false, follow: false }, referrer: 'same-origin' };

// The page a notification's Approve or Reject link opens (docs/approvals.md, "Notifications and
// one-click links"): the call as it will run, the session's context, and a form. Opening it
// decides nothing — mail scanners and link previews open every link — only the form's POST
// (/api/links/decide) does, and it verifies the token again.
export default async function ApprovePage({ params }: { params: Promise<{ token: string }> }) {
  const token = safeDecode((await params).token);
  let view: LinkView | undefined;
  let refusal: Refusal | undefined;
  try {
    view = await readLink(getStore(), findAgent, token);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    refusal = error;
  }
  return (
    <PageFrame className="max-w-xl pt-8 sm:pt-14">{refusal || !view ? <Refused refusal={refusal!} /> : <LinkRequest view={view} token={token} />}</PageFrame>
  );
}

function Card({ children, tone = 'default', testId }: { children: ReactNode; tone?: 'default' | 'attention' | 'danger'; testId: string }) {
  const tones = {
    default: 'border-border bg-card',
    attention: 'border-attention-border bg-attention',
    danger: 'border-destructive/30 bg-destructive/10',
  };
  return (
    <section className={`space-y-4 rounded-xl border p-5 text-card-foreground shadow-sm sm:p-6 ${tones[tone]}`} data-testid={testId}>
      {children}
    </section>
  );
}

function Refused({ refusal }: { refusal: Refusal }) {
  return (
    <Card tone="danger" testId="link-refused">
      <header className="flex items-center gap-3">
        <span className="grid size-9 place-items-center rounded-md bg-destructive/10 text-destructive" aria-hidden>
          <TriangleAlertIcon className="size-4" />
        </span>
        <h1 className="text-xl font-semibold tracking-tight">This link decides nothing</h1>
      </header>
      <p className="text-sm text-pretty" data-code={refusal.code} data-testid="link-refusal">
        {refusal.message}
      </p>
      <Button asChild variant="secondary" size="sm">
        <a href="/studio">Open Studio</a>
      </Button>
    </Card>
  );
}

function LinkRequest({ view, token }: { view: LinkView; token: string }) {
  const { interrupt, claims, decided, quorum } = view;
  const fields = labelledFields(interrupt.input, view.inputSchema as JsonSchema | undefined, 'en-US');
  // A person votes once: once this link's person voted, the page says so instead of asking again.
  const decides = claims.action !== 'open' && !decided && !quorum?.voted;
  const studio = `/studio?decision=${encodeURIComponent(interrupt.id)}`;
  const actionLabel = claims.action === 'approve' ? `Approve ${verbPhrase(interrupt.toolName, interrupt.message)}` : 'Reject';
  return (
    <Card tone={decided ? 'default' : 'attention'} testId="link-request">
      <header className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs font-medium text-warning">
        <ShieldQuestionIcon className="size-4" aria-hidden />
        <span>{decided ? 'Decided' : claims.action === 'reject' ? 'You were asked to reject this' : 'Needs a decision'}</span>
        <span className="font-normal text-muted-foreground">from the {view.session.agentDisplayName} agent</span>
      </header>
      <h1 className="text-xl font-semibold tracking-tight text-foreground" data-testid="link-message">
        {interrupt.message}
      </h1>
      {interrupt.description && interrupt.description !== interrupt.message && <p className="text-sm">{interrupt.description}</p>}
      {fields.length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="link-fields">
          {fields.map((field) => (
            <div key={field.key} className="contents">
              <dt className="text-muted-foreground">{field.label}</dt>
              <dd className="font-medium break-words">{field.text}</dd>
            </div>
          ))}
        </dl>
      )}
      {interrupt.context && <ApprovalContext context={interrupt.context} testId="link-context" />}
      {/* The call as the program sees it, and which conversation: for whoever wants them, as the chat's card keeps them. */}
      <details className="text-xs text-muted-foreground" data-testid="link-details">
        <summary className="cursor-pointer">Details</summary>
        <p className="mt-2 mb-1">
          <span className="font-mono">{interrupt.toolName}</span>, with the arguments it will run with, in the conversation{' '}
          <span className="break-all">{view.session.key}</span>
        </p>
        <pre className="max-h-60 overflow-auto rounded-md bg-background/70 px-3 py-2 font-mono text-xs text-foreground" data-testid="link-args">
          {JSON.stringify(interrupt.input, null, 2)}
        </pre>
      </details>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs text-muted-foreground">
        {view.lastUserMessage && (
          <>
            <dt>Last message</dt>
            <dd className="whitespace-pre-wrap text-foreground" data-testid="link-last-message">
              {view.lastUserMessage}
            </dd>
          </>
        )}
        {interrupt.expiresAt && !decided && (
          <>
            <dt>Expires</dt>
            <dd>
              <LocalTime iso={interrupt.expiresAt} /> (then it is {interrupt.onExpire === 'approve' ? 'approved' : 'rejected'})
            </dd>
          </>
        )}
      </dl>
      {quorum && !decided && (
        <p className="rounded-md border bg-background/70 px-3 py-2 text-sm" data-testid="link-quorum" data-voted={quorum.voted}>
          {quorum.voted ? 'Your vote is counted. ' : `This call needs ${quorum.required} approvers. `}
          {quorum.approvals} of {quorum.required} approvals so far; it runs when the last one approves.
        </p>
      )}
      {decided && (
        <p
          className="flex items-center gap-2 rounded-md border bg-background/70 px-3 py-2 text-sm"
          data-testid="link-decided"
          data-status={decided.decision.status}
        >
          {decided.decision.status === 'approved' ? (
            <CircleCheckIcon className="size-4 text-success" aria-hidden />
          ) : (
            <CircleXIcon className="size-4 text-destructive" aria-hidden />
          )}
          <span>
            {capitalise(describeDecision(decided))}
            {decided.decision.reason ? `: “${decided.decision.reason}”` : ''}.
          </span>
        </p>
      )}
      {decides && (
        // A plain form: it works without JavaScript, from any mail client's browser.
        <form method="post" action="/api/links/decide" className="space-y-3" data-testid="link-form">
          <input type="hidden" name="token" value={token} />
          {claims.action === 'reject' && (
            <Field label="Reason (optional)" hint="The agent is told, and it is kept in the audit trail.">
              <Textarea name="reason" rows={3} maxLength={2000} />
            </Field>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <Button type="submit" variant={claims.action === 'approve' ? 'primary' : 'destructive'} data-testid="link-submit">
              {claims.action === 'approve' ? <CircleCheckIcon aria-hidden /> : <CircleXIcon aria-hidden />}
              {actionLabel}
            </Button>
            <Button asChild variant="ghost" size="sm">
              <a href={studio}>
                <ExternalLinkIcon aria-hidden />
                Open in Studio
              </a>
            </Button>
          </div>
          <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
            <LinkIcon className="size-3.5" aria-hidden />
            This link was sent to {recipientWords(claims.recipient)}
            {view.countsAs ? `, and counts as ${view.countsAs}’s vote` : ''}; it works once.
          </p>
        </form>
      )}
      {!decides && (
        <Button asChild variant="secondary" size="sm">
          <a href={studio}>
            <ExternalLinkIcon aria-hidden />
            Open in Studio
          </a>
        </Button>
      )}
    </Card>
  );
}

/** "send" for sendInvoice: the button says what it approves. */
function verbPhrase(toolName: string, message: string): string {
  const first = toolName
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)[0]
    ?.toLowerCase();
  return first && first.length > 2 ? first : message.split(' ')[0]?.toLowerCase() || 'this call';
}

function recipientWords(recipient: string): string {
  if (recipient.startsWith('email:')) return recipient.slice('email:'.length);
  return recipient === 'slack' ? 'a Slack channel' : recipient;
}

/** A token as the path carried it; a malformed escape is no token (readLink says it is not valid). */
function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return '';
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
