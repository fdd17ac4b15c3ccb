'use client';
// The message box: Enter sends, Shift+Enter starts a new line; Stop aborts the run. While a turn
// runs, what is typed can steer it (the run takes it in at its next step). While the agent waits
// on a decision it is locked with a hint: the thread takes nothing else until then.
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useHydrated } from './use-hydrated';

export interface ComposerProps {
  running: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  /** Guidance for the running turn; resolves false when it was not taken (the text stays). */
  onSteer?: (text: string) => Promise<boolean>;
  placeholder?: string;
  /** Why nothing can be sent right now (pending decisions); the composer is locked meanwhile. */
  lockedReason?: string;
}

export function Composer({ running, onSend, onStop, onSteer, placeholder, lockedReason }: ComposerProps) {
  const hydrated = useHydrated();
  const [text, setText] = useState('');
  const canSend = hydrated && !running && !lockedReason && text.trim().length > 0;

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!canSend) return;
    onSend(text);
    setText('');
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
        placeholder={lockedReason ?? placeholder ?? 'Send a message…'}
        title={lockedReason}
        data-locked={lockedReason ? true : undefined}
        disabled={!hydrated || Boolean(lockedReason)}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {running ? (
        <>
          {onSteer && (
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
          <button type="button" className="button button-stop" data-testid="stop-button" onClick={onStop}>
            Stop
          </button>
        </>
      ) : (
        <button type="submit" className="button button-primary" data-testid="send-button" disabled={!canSend}>
          Send
        </button>
      )}
    </form>
  );
}
