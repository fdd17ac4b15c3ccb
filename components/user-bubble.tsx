'use client';
// A user's message in the conversation, with its attachments; where the thread may be forked, a
// pencil turns it into a form that resends it, edited, in a new thread (docs/time-travel.md).
import type { UserMessage } from '@ag-ui/client';
import { PencilIcon } from 'lucide-react';
import { useState } from 'react';
import { MessageAttachments, messageFiles } from './message-attachments';

/** The message, or the form editing it. */
export function UserBubble({ message, onEdit }: { message: UserMessage; onEdit?: (messageId: string, text: string) => void }) {
  const files = messageFiles(message.content);
  const text =
    typeof message.content === 'string'
      ? message.content
      : message.content.map((part) => (part.type === 'text' ? part.text : files.length ? '' : `[${part.type}]`)).join('');
  const [editing, setEditing] = useState<string | null>(null);
  if (editing !== null) {
    return (
      <form
        className="ml-auto flex w-full max-w-[85%] flex-col gap-2"
        data-testid="edit-message"
        onSubmit={(event) => {
          event.preventDefault();
          if (editing.trim()) onEdit?.(message.id, editing.trim());
          setEditing(null);
        }}
      >
        <textarea
          className="min-h-20 rounded-xl border bg-background px-3 py-2 text-sm"
          aria-label="Edit your message"
          value={editing}
          autoFocus
          onChange={(event) => setEditing(event.target.value)}
        />
        <p className="text-xs text-muted-foreground">Sends it in a new thread from here; this thread stays as it is.</p>
        <div className="flex justify-end gap-2">
          <button type="button" className="rounded-md px-3 py-1 text-sm hover:bg-accent" onClick={() => setEditing(null)}>
            Cancel
          </button>
          <button type="submit" className="rounded-md bg-primary px-3 py-1 text-sm text-primary-foreground" disabled={!editing.trim() || !onEdit}>
            Send in a new thread
          </button>
        </div>
      </form>
    );
  }
  return (
    <div className="group ml-auto flex max-w-[85%] items-start gap-1">
      {/* In its place while a turn runs, disabled (onEdit is absent then): the layout holds still. */}
      {!files.length && (
        <button
          type="button"
          className="mt-1.5 rounded-md p-1 text-muted-foreground opacity-60 hover:bg-accent hover:opacity-100 focus-visible:opacity-100 disabled:pointer-events-none disabled:opacity-25"
          aria-label="Edit and resend"
          title={onEdit ? 'Edit and resend (in a new thread)' : 'Edit once the agent is free'}
          data-testid="edit-message-button"
          disabled={!onEdit}
          onClick={() => setEditing(text)}
        >
          <PencilIcon className="size-3.5" aria-hidden />
        </button>
      )}
      <div className="rounded-2xl bg-user-bubble px-4 py-2 whitespace-pre-wrap break-words text-user-bubble-foreground" data-testid="message-user">
        <MessageAttachments files={files} />
        {text}
      </div>
    </div>
  );
}
