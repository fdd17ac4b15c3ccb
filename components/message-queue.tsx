'use client';
// The thread's message queue, under the composer (docs/turn-control.md, "Queue"): messages sent
// while the agent was busy, in the order they go out, each one editable, movable up, removable,
// or sent now (which ends the turn in progress at its next step). The same in every tab.
import { useState } from 'react';
import { Button } from './ui/button';
import type { QueueItem } from '@/server/contract';

export interface MessageQueueProps {
  queue: readonly QueueItem[];
  onEdit: (id: string, text: string) => Promise<boolean>;
  onMoveUp: (id: string, index: number) => Promise<boolean>;
  onRemove: (id: string) => Promise<boolean>;
  onSendNow: (id: string) => Promise<boolean>;
}

export function MessageQueue({ queue, onEdit, onMoveUp, onRemove, onSendNow }: MessageQueueProps) {
  if (queue.length === 0) return null;
  return (
    <section className="space-y-1" aria-label="Queued messages" data-testid="message-queue">
      <h2 className="px-1 text-xs font-medium text-muted-foreground">Queued — each goes out as its own turn when the agent is free</h2>
      <ol className="space-y-1">
        {queue.map((item, index) => (
          <QueuedMessage key={item.id} item={item} index={index} {...{ onEdit, onMoveUp, onRemove, onSendNow }} />
        ))}
      </ol>
    </section>
  );
}

function QueuedMessage({ item, index, onEdit, onMoveUp, onRemove, onSendNow }: { item: QueueItem; index: number } & Omit<MessageQueueProps, 'queue'>) {
  const [draft, setDraft] = useState<string | null>(null);
  const editing = draft !== null;

  async function save() {
    if (draft === null || !draft.trim()) return;
    if (await onEdit(item.id, draft)) setDraft(null);
  }

  return (
    <li
      className="flex flex-wrap items-center gap-2 rounded-lg border bg-card px-3 py-1.5 text-sm"
      data-testid="queue-item"
      data-send-now={item.sendNow ? true : undefined}
    >
      {editing ? (
        <textarea
          className="w-full flex-1 rounded-md border border-input bg-background px-2 py-1 text-sm"
          data-testid="queue-edit-input"
          aria-label="Edit queued message"
          rows={2}
          value={draft}
          autoFocus
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              void save();
            } else if (event.key === 'Escape') setDraft(null);
          }}
        />
      ) : (
        <span className="min-w-0 flex-1 break-words" data-testid="queue-item-text">
          {item.content}
          {item.sendNow && <span className="text-muted-foreground"> · sending now</span>}
        </span>
      )}
      <span className="ml-auto flex shrink-0 items-center gap-1">
        {editing ? (
          <>
            <Button variant="primary" size="sm" data-testid="queue-save-button" disabled={!draft.trim()} onClick={() => void save()}>
              Save
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setDraft(null)}>
              Cancel
            </Button>
          </>
        ) : (
          <>
            <Button
              variant="ghost"
              size="sm"
              data-testid="queue-edit-button"
              aria-label={`Edit queued message: ${item.content}`}
              onClick={() => setDraft(item.content)}
            >
              Edit
            </Button>
            {index > 0 && (
              <Button
                variant="ghost"
                size="sm"
                data-testid="queue-up-button"
                aria-label={`Move up: ${item.content}`}
                onClick={() => void onMoveUp(item.id, index - 1)}
              >
                Up
              </Button>
            )}
            {!item.sendNow && (
              <Button
                variant="secondary"
                size="sm"
                data-testid="queue-send-now-button"
                aria-label={`Send now: ${item.content}`}
                onClick={() => void onSendNow(item.id)}
              >
                Send now
              </Button>
            )}
            <Button
              variant="ghost"
              size="sm"
              data-testid="queue-remove-button"
              aria-label={`Remove queued message: ${item.content}`}
              onClick={() => void onRemove(item.id)}
            >
              Remove
            </Button>
          </>
        )}
      </span>
    </li>
  );
}
