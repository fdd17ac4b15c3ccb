'use client';
// Studio's inbox (docs/studio.md): every decision waiting on a person, across sessions and
// agents — the caller's own first, then (for a key holder) the others kept for key holders, each
// newest first, a page at a time with "Load more" — with the same card as the chat: Approve,
// Reject with a reason, Edit the arguments, answer or decline a question, Cancel, sent as
// out-of-band decisions. Live: a decision made elsewhere disappears, a new pause appears, through
// the Studio feed.
import { FilterXIcon, InboxIcon } from 'lucide-react';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { displayNameOf } from '../agent-name';
import type { AgentCard } from '@/server/web/agents';
import type { InboxFilter, InboxItem } from '@/server/contract';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Field, Select } from '../ui/field';
import { InboxEntry } from './inbox-entry';
import { StudioError } from './studio-api';
import { StudioSignIn } from './studio-sign-in';
import { useInbox } from './use-inbox';
import { useStudioFeed } from './use-studio-feed';

type KindFilter = 'all' | 'tool_call' | 'input_required';
type Cards = Pick<AgentCard, 'name' | 'displayName' | 'tools'>[];

/** `focus`: the decision a link named (`/studio?decision=<id>`, docs/studio.md): it is scrolled to and marked. */
export function StudioInbox({ agents: cards, focus }: { agents: Cards; focus?: string }) {
  useStudioFeed();
  const [whose, setWhose] = useState<InboxFilter>('all');
  const inbox = useInbox(whose, focus);
  const [agent, setAgent] = useState('all');
  const [kind, setKind] = useState<KindFilter>('all');
  const items = useMemo(
    () => inbox.items.filter((item) => (agent === 'all' || item.agent === agent) && (kind === 'all' || item.reason === kind)),
    [inbox.items, agent, kind],
  );
  const agents = useMemo(() => [...new Set(inbox.items.map((item) => item.agent))].sort(), [inbox.items]);
  const agentName = (name: string) => displayNameOf(cards.find((card) => card.name === name) ?? { name });
  const unauthorized = inbox.error instanceof StudioError && inbox.error.code === 'unauthorized';
  // The server lists the caller's own first; the rest are kept for key holders (docs/security.md, "Approvers").
  const own = items.filter((item) => item.ownSession);
  const kept = items.filter((item) => !item.ownSession);
  const showEverything = () => {
    setWhose('all');
    setAgent('all');
    setKind('all');
  };

  if (unauthorized) return <StudioSignIn />;
  return (
    <section aria-labelledby="inbox-title" data-testid="studio-inbox">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <h2 id="inbox-title" className="flex items-center gap-2 text-lg font-semibold tracking-tight">
          Waiting on a person
          <Badge tone={items.length > 0 ? 'attention' : 'neutral'} data-testid="inbox-count">
            {inbox.loaded ? `${items.length}${inbox.hasMore ? '+' : ''}` : '…'}
          </Badge>
        </h2>
        <div className="grid grid-cols-2 gap-2 sm:flex sm:gap-3">
          <Field label="Whose" className="col-span-2 text-xs sm:w-52">
            <Select value={whose} onChange={(event) => setWhose(event.target.value as InboxFilter)} data-testid="inbox-whose-filter">
              <option value="all">Yours first, then others&apos;</option>
              <option value="mine">Your sessions&apos;</option>
              <option value="key-holders">Kept for key holders</option>
            </Select>
          </Field>
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
      {inbox.error && (
        <p className="mb-4 rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert">
          Could not load the inbox: {inbox.error.message}
        </p>
      )}
      {!inbox.loaded && !inbox.error && <p className="py-8 text-center text-sm text-muted-foreground">Loading the inbox…</p>}
      {inbox.loaded && items.length === 0 && (
        <EmptyInbox filtered={whose !== 'all' || ((agent !== 'all' || kind !== 'all') && inbox.items.length > 0)} showEverything={showEverything} />
      )}
      <InboxList items={own} cards={cards} agentName={agentName} focus={focus} />
      {kept.length > 0 && own.length > 0 && (
        <h3 className="mt-6 mb-3 text-sm font-semibold text-muted-foreground" data-testid="inbox-kept-heading">
          Kept for key holders
        </h3>
      )}
      <InboxList items={kept} cards={cards} agentName={agentName} focus={focus} />
      {inbox.hasMore && (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" onClick={inbox.loadMore} disabled={inbox.loadingMore} data-testid="inbox-load-more">
            {inbox.loadingMore ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      )}
    </section>
  );
}

function InboxList({ items, cards, agentName, focus }: { items: InboxItem[]; cards: Cards; agentName: (name: string) => string; focus?: string }) {
  if (items.length === 0) return null;
  return (
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
  );
}

function EmptyInbox({ filtered, showEverything }: { filtered: boolean; showEverything: () => void }) {
  return (
    <div
      className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-10 text-center text-sm text-muted-foreground"
      data-testid="inbox-empty"
    >
      <InboxIcon className="size-6" aria-hidden />
      {filtered ? (
        <>
          <p>Nothing waiting matches these filters.</p>
          <Button variant="secondary" size="sm" onClick={showEverything}>
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
  );
}
