'use client';
// A thread's time travel in the chat (docs/time-travel.md): edit-and-resend and regenerate, each a
// new thread forked from a message of this one, and the offers to undo what the original thread
// did after the fork point.
import { Undo2Icon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { ToolInfo } from './tool-call';
import { Button } from './ui/button';

/** An effect of the original thread after the fork point, and the call that would undo it. */
export interface UndoOfferView {
  toolCallId: string;
  toolName: string;
  input: unknown;
  undo: { tool: string; input: unknown };
}

/**
 * Edit-and-resend and regenerate (docs/time-travel.md): a new thread from a message of this one,
 * made by the server's fork endpoint; the page moves to it, where its turn is running.
 */
export function useFork(agent: string, threadId: string) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** `threadId`: fork another thread of this agent than the one on screen (a reply's original, to regenerate it again). */
  const start = async (body: { atMessageId: string; message?: string; regenerate?: true; threadId?: string }) => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(`/api/agents/${encodeURIComponent(agent)}/fork`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, threadId: body.threadId ?? threadId }),
      });
      const answer = (await response.json()) as { threadId?: string; error?: { message: string } };
      if (!response.ok || !answer.threadId) throw new Error(answer.error?.message ?? `The server answered ${response.status}.`);
      router.push(`/agents/${encodeURIComponent(agent)}/${encodeURIComponent(answer.threadId)}`);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setBusy(false);
    }
  };
  return { busy, error, start };
}

/**
 * What the original thread did after the fork point that the agent can undo: one line each, with
 * a button that asks for the undo — a call that then waits for its approval like any other.
 */
export function UndoOffers({
  agent,
  threadId,
  offers,
  busy,
  toolInfo,
}: {
  agent: string;
  threadId: string;
  offers: UndoOfferView[];
  busy: boolean;
  toolInfo: (tool: string) => ToolInfo | undefined;
}) {
  const [asked, setAsked] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const open = offers.filter((offer) => !asked.has(offer.toolCallId));
  if (open.length === 0) return null;
  const undo = async (offer: UndoOfferView) => {
    setError(null);
    const response = await fetch(`/api/agents/${encodeURIComponent(agent)}/undo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ threadId, toolCallId: offer.toolCallId }),
    });
    if (response.ok) setAsked((current) => new Set([...current, offer.toolCallId]));
    else setError(((await response.json()) as { error?: { message?: string } }).error?.message ?? `The server answered ${response.status}.`);
  };
  return (
    <section className="space-y-2 rounded-lg border border-dashed bg-muted/40 p-3 text-sm" aria-label="Effects to undo" data-testid="undo-offers">
      {open.map((offer) => (
        <div key={offer.toolCallId} className="flex flex-wrap items-center gap-2" data-testid="undo-offer">
          <Undo2Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          <span className="min-w-0 flex-1">
            After the fork point, the original thread ran <strong className="font-medium">{toolInfo(offer.toolName)?.title ?? offer.toolName}</strong>{' '}
            <code className="text-xs break-all">{JSON.stringify(offer.input)}</code>; it was not undone there.
          </span>
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => void undo(offer)} data-testid="undo-button">
            Undo it ({toolInfo(offer.undo.tool)?.title ?? offer.undo.tool})
          </Button>
        </div>
      ))}
      {error && (
        <p className="text-destructive" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
