'use client';
// The message box: Enter sends, Shift+Enter starts a new line; Stop aborts the run.
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useHydrated } from './use-hydrated';

export interface ComposerProps {
  running: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  placeholder?: string;
}

export function Composer({ running, onSend, onStop, placeholder }: ComposerProps) {
  const hydrated = useHydrated();
  const [text, setText] = useState('');
  const canSend = hydrated && !running && text.trim().length > 0;

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
        placeholder={placeholder ?? 'Send a message…'}
        disabled={!hydrated}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {running ? (
        <button type="button" className="button button-stop" data-testid="stop-button" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" className="button button-primary" data-testid="send-button" disabled={!canSend}>
          Send
        </button>
      )}
    </form>
  );
}
