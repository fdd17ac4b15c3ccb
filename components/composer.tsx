'use client';
// The message box: Enter sends, Shift+Enter starts a new line; Stop ends the run. While a turn
// runs, what is typed can steer it (the run takes it in at its next step) or be queued (it goes
// out as a turn of its own when this one ends). While the agent waits on a decision, a message
// sent is queued behind it (docs/turn-control.md, "Queue").
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useHydrated } from './use-hydrated';

export interface ComposerProps {
  running: boolean;
  /** Sends or queues; resolves false when neither happened (the text comes back). */
  onSend: (text: string) => Promise<boolean> | void;
  onStop: () => void;
  /** Guidance for the running turn; resolves false when it was not taken (the text stays). */
  onSteer?: (text: string) => Promise<boolean>;
  placeholder?: string;
  /** Why a message sent now waits in the queue (a pending decision). */
  waitingReason?: string;
}

export function Composer({ running, onSend, onStop, onSteer, placeholder, waitingReason }: ComposerProps) {
  const hydrated = useHydrated();
  const [text, setText] = useState('');
  const queues = running || Boolean(waitingReason);
  const canSend = hydrated && text.trim().length > 0;

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
    <form className="composer" onSubmit={submit} data-testid="composer">
      <textarea
        className="composer-input"
        data-testid="composer-input"
        aria-label="Message"
        rows={2}
        value={text}
        placeholder={waitingReason ?? placeholder ?? (running ? 'Steer this turn, or queue a message for the next…' : 'Send a message…')}
        title={waitingReason}
        data-waiting={waitingReason ? true : undefined}
        disabled={!hydrated}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {running && onSteer && (
        <button
          type="button"
          className="button"
          data-testid="steer-button"
          title="Add this to the turn in progress"
          disabled={!hydrated || text.trim().length === 0}
          onClick={() => void onSteer(text).then((taken) => taken && setText(''))}
        >
          Steer
        </button>
      )}
      <button
        type="submit"
        className="button button-primary"
        data-testid="send-button"
        data-queues={queues ? true : undefined}
        title={queues ? 'Sent as its own turn once the agent is free' : undefined}
        disabled={!canSend}
      >
        {queues ? 'Queue' : 'Send'}
      </button>
      {running && (
        <button type="button" className="button button-stop" data-testid="stop-button" onClick={onStop}>
          Stop
        </button>
      )}
    </form>
  );
}
