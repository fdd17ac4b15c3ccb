'use client';
// The message box, always at the bottom: Enter sends, Shift+Enter starts a new line; Stop ends
// the run. While a turn runs, what is typed can steer it (the run takes it in at its next step)
// or be queued (it goes out as a turn of its own when this one ends). While the agent waits on a
// decision, a message sent is queued behind it (docs/turn-control.md, "Queue").
// Files go with a message too (docs/models.md, "Attachments"): picked with the paperclip,
// dropped on the box or pasted, each uploaded at once and shown as a chip until it is sent.
import { ArrowUpIcon, ListPlusIcon, NavigationIcon, PaperclipIcon, SquareIcon } from 'lucide-react';
import { useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { Attachment } from '@/server/contract';
import { AttachmentChips } from './attachment-chips';
import { ATTACH_ACCEPT, useAttachmentUploads } from './hooks/use-attachment-uploads';
import { Button } from './ui/button';
import { cn } from './ui/cn';
import { useHydrated } from './use-hydrated';

export interface ComposerProps {
  running: boolean;
  /** Sends or queues; resolves false when neither happened (the text and files come back). */
  onSend: (text: string, attachments?: Attachment[]) => Promise<boolean> | void;
  /** Where files are uploaded (POST /api/agents/{name}/attachments); without it, no files. */
  attachmentsUrl?: string;
  onStop: () => void;
  /** Guidance for the running turn; resolves false when it was not taken (the text stays). */
  onSteer?: (text: string) => Promise<boolean>;
  placeholder?: string;
  /** Why a message sent now waits in the queue (a pending decision), in a few words. */
  waitingReason?: string;
  /** Under the box, before the hint: the model picker (model-picker.tsx), when the agent offers several. */
  modelPicker?: ReactNode;
}

/**
 * A turn's three buttons (Steer, Queue, Stop) as icons on a phone, their words kept for screen
 * readers: with words they squeeze the box to a sliver that wraps its placeholder over several
 * lines, and the composer grew and shrank by a third of the screen with every turn.
 */
const ICON_ON_PHONES = 'max-sm:w-8 max-sm:px-0';

export function Composer({ running, onSend, onStop, onSteer, placeholder, waitingReason, modelPicker, attachmentsUrl }: ComposerProps) {
  const hydrated = useHydrated();
  const [text, setText] = useState('');
  const uploads = useAttachmentUploads(attachmentsUrl ?? '');
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const queues = running || Boolean(waitingReason);
  const files = uploads.files;
  const uploading = files.some((file) => file.status === 'uploading');
  const failed = files.some((file) => file.status === 'error');
  // Files go with a turn of their own; the queue keeps text (docs/turn-control.md, "Queue").
  const filesWait = queues && files.length > 0;
  const canSend = hydrated && (text.trim().length > 0 || files.length > 0) && !uploading && !failed && !filesWait;
  const hint = failed
    ? 'Remove the files that could not be attached to send.'
    : filesWait
      ? 'Files go with a new turn: send once the agent is free.'
      : (waitingReason ?? (running ? 'Steer adds to this turn; Queue sends it after.' : undefined));

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!canSend) return;
    const sent = text;
    const attachments = files.flatMap((file) => (file.attachment ? [file.attachment] : []));
    setText('');
    uploads.take();
    void Promise.resolve(onSend(sent, attachments.length ? attachments : undefined)).then((taken) => {
      if (taken !== false) return;
      setText((current) => current || sent);
      uploads.restore(files);
    });
  }

  function onDrop(event: DragEvent) {
    if (!attachmentsUrl || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    setDragging(false);
    uploads.add(event.dataTransfer.files);
  }

  function onDragOver(event: DragEvent) {
    if (!attachmentsUrl || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    setDragging(true);
  }

  function onPaste(event: ClipboardEvent) {
    if (!attachmentsUrl || event.clipboardData.files.length === 0) return;
    // An image copied from a page comes with its HTML or URL too; the file is what was meant.
    event.preventDefault();
    uploads.add(event.clipboardData.files);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <form
      className="space-y-1"
      onSubmit={submit}
      data-testid="composer"
      onDragOver={onDragOver}
      onDragLeave={(event) => !event.currentTarget.contains(event.relatedTarget as Node | null) && setDragging(false)}
      onDrop={onDrop}
    >
      <AttachmentChips files={files} onRemove={uploads.remove} />
      <div
        className={cn(
          'relative flex items-end gap-2 rounded-xl border border-input bg-card p-2 shadow-sm focus-within:outline-2 focus-within:outline-ring',
          dragging && 'border-dashed border-primary bg-accent',
        )}
        data-dragging={dragging ? true : undefined}
      >
        {dragging && (
          <p
            className="pointer-events-none absolute inset-0 flex items-center justify-center rounded-xl text-sm font-medium text-primary"
            data-testid="drop-hint"
          >
            Drop images or PDFs to attach
          </p>
        )}
        {attachmentsUrl && (
          <>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              accept={ATTACH_ACCEPT}
              data-testid="attach-input"
              onChange={(event) => {
                if (event.target.files) uploads.add(event.target.files);
                event.target.value = '';
              }}
            />
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label="Attach images or PDFs"
              title="Attach images or PDFs"
              disabled={!hydrated}
              onClick={() => fileInput.current?.click()}
            >
              <PaperclipIcon aria-hidden />
            </Button>
          </>
        )}
        <textarea
          className="field-sizing-content max-h-40 min-h-9 flex-1 resize-none bg-transparent px-2 py-1.5 text-base outline-none placeholder:text-muted-foreground sm:text-sm"
          data-testid="composer-input"
          aria-label="Message"
          aria-describedby={hint ? 'composer-hint' : undefined}
          rows={1}
          value={text}
          placeholder={placeholder ?? (queues ? 'Write a message…' : 'Send a message…')}
          data-waiting={waitingReason ? true : undefined}
          disabled={!hydrated}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {running && onSteer && (
          <Button
            variant="secondary"
            size="sm"
            className={ICON_ON_PHONES}
            data-testid="steer-button"
            title="Add this to the turn in progress"
            disabled={!hydrated || text.trim().length === 0}
            onClick={() => void onSteer(text).then((taken) => taken && setText(''))}
          >
            <NavigationIcon aria-hidden /> <span className="max-sm:sr-only">Steer</span>
          </Button>
        )}
        <Button
          type="submit"
          variant="primary"
          size="sm"
          className={cn(running && ICON_ON_PHONES)}
          data-testid="send-button"
          data-queues={queues ? true : undefined}
          title={uploading ? 'Waiting for the files to upload' : queues ? 'Sent as its own turn once the agent is free' : 'Send'}
          disabled={!canSend}
        >
          {queues ? <ListPlusIcon aria-hidden /> : <ArrowUpIcon aria-hidden />}
          <span className={cn(running && 'max-sm:sr-only')}>{queues ? 'Queue' : 'Send'}</span>
        </Button>
        {running && (
          <Button variant="secondary" size="sm" className={ICON_ON_PHONES} data-testid="stop-button" onClick={onStop}>
            <SquareIcon className="fill-current" aria-hidden /> <span className="max-sm:sr-only">Stop</span>
          </Button>
        )}
      </div>
      {(hint || modelPicker) && (
        <div className="flex flex-wrap items-center gap-x-2">
          {modelPicker}
          {hint && (
            <p id="composer-hint" className="px-1 text-xs text-muted-foreground" data-testid="composer-hint">
              {hint}
            </p>
          )}
        </div>
      )}
    </form>
  );
}
