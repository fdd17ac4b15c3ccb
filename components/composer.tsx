'use client';
// The message box, always at the bottom: Enter sends, Shift+Enter starts a new line; Stop ends
// the run. While a turn runs, what is typed can steer it (the run takes it in at its next step)
// or be queued (it goes out as a turn of its own when this one ends). While the agent waits on a
// decision, a message sent is queued behind it (docs/turn-control.md, "Queue").
import { ArrowUpIcon, ListPlusIcon, NavigationIcon, SquareIcon } from 'lucide-react';
import { useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from './ui/button';
import { useHydrated } from './use-hydrated';

export interface ComposerProps {
  running: boolean;
  /** Sends or queues; resolves false when neither happened (the text comes back). */
  onSend: (text: string) => Promise<boolean> | void;
  onStop: () => void;
  /** Guidance for the running turn; resolves false when it was not taken (the text stays). */
  onSteer?: (text: string) => Promise<boolean>;
  placeholder?: string;
  /** Why a message sent now waits in the queue (a pending decision), in a few words. */
  waitingReason?: string;
  /** Under the box, before the hint: the model picker (model-picker.tsx), when the agent offers several. */
  modelPicker?: ReactNode;
}

export function Composer({ running, onSend, onStop, onSteer, placeholder, waitingReason, modelPicker }: ComposerProps) {
  const hydrated = useHydrated();
  const [text, setText] = useState('');
  const queues = running || Boolean(waitingReason);
  const canSend = hydrated && text.trim().length > 0;
  const hint = waitingReason ?? (running ? 'Steer adds to this turn; Queue sends it after.' : undefined);

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!canSend) return;
    const sent = text;
    setText('');
    void Promise.resolve(onSend(sent)).then((taken) => {
      if (taken === false) setText((current) => current || sent);
    });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <form className="space-y-1" onSubmit={submit} data-testid="composer">
      <div className="flex items-end gap-2 rounded-xl border border-input bg-card p-2 shadow-sm focus-within:outline-2 focus-within:outline-ring">
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
        />
        {running && onSteer && (
          <Button
            variant="secondary"
            size="sm"
            data-testid="steer-button"
            title="Add this to the turn in progress"
            disabled={!hydrated || text.trim().length === 0}
            onClick={() => void onSteer(text).then((taken) => taken && setText(''))}
          >
            <NavigationIcon aria-hidden /> Steer
          </Button>
        )}
        <Button
          type="submit"
          variant="primary"
          size="sm"
          data-testid="send-button"
          data-queues={queues ? true : undefined}
          title={queues ? 'Sent as its own turn once the agent is free' : 'Send'}
          disabled={!canSend}
        >
          {queues ? <ListPlusIcon aria-hidden /> : <ArrowUpIcon aria-hidden />}
          {queues ? 'Queue' : 'Send'}
        </Button>
        {running && (
          <Button variant="secondary" size="sm" data-testid="stop-button" onClick={onStop}>
            <SquareIcon className="fill-current" aria-hidden /> Stop
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
