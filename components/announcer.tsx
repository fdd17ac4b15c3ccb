'use client';
// What a screen reader hears of the chat: each finished reply once, whole ("Support: …"), an
// approval or question when it opens, a failure and a stop — never each streamed token or
// tool-call JSON (the message list itself is not a live region). A reply is read as the page
// shows it — its markdown rendered (components/markdown.tsx), so a listener hears "Total $19.99",
// not "pipe, dash, dash".
import type { Message } from '@ag-ui/client';
import { useEffect, useState } from 'react';
import type { PendingInterrupt } from './hooks/useAgent';

export interface AnnouncerProps {
  agentName: string;
  messages: readonly Message[];
  streamingMessageId: string | null;
  interrupts: readonly PendingInterrupt[];
  error: string | null;
  stopped: boolean;
}

export function Announcer({ agentName, messages, streamingMessageId, interrupts, error, stopped }: AnnouncerProps) {
  const [text, setText] = useState('');
  // A reply that just finished: its rendered text is read from the page once it is painted.
  const [finishedReply, setFinishedReply] = useState<string | null>(null);
  const interruptIds = interrupts.map((interrupt) => interrupt.id).join(' ');
  const [seen, setSeen] = useState({ streamingMessageId, interruptIds, error, stopped });
  // What changed since the last render decides the one line to say (worked out while
  // rendering: react.dev, "Adjusting some state when a prop changes").
  if (seen.streamingMessageId !== streamingMessageId || seen.interruptIds !== interruptIds || seen.error !== error || seen.stopped !== stopped) {
    let line = text;
    const finished = seen.streamingMessageId;
    if (finished && finished !== streamingMessageId) {
      const message = messages.find((candidate) => candidate.id === finished);
      if (message && 'content' in message && typeof message.content === 'string' && message.content) {
        line = `${agentName}: ${message.content.slice(0, 600)}`;
        setFinishedReply(finished);
      }
    }
    const known = new Set(seen.interruptIds.split(' '));
    const opened = interrupts.filter((interrupt) => !known.has(interrupt.id));
    if (opened.length > 0)
      line = opened.map((interrupt) => `${interrupt.reason === 'input_required' ? 'Question' : 'Needs your approval'}: ${interrupt.message ?? ''}`).join('. ');
    if (error && error !== seen.error) line = `Failed: ${error}`;
    if (stopped && !seen.stopped) line = 'Stopped.';
    setSeen({ streamingMessageId, interruptIds, error, stopped });
    setText(line);
  }

  useEffect(() => {
    if (!finishedReply) return;
    // Once the finished reply is painted, its text as shown replaces its markdown source, while
    // the line is still this reply's (an approval that opened with it speaks instead).
    const frame = requestAnimationFrame(() => {
      const shown = document
        .querySelector<HTMLElement>(`[data-reply-text="${CSS.escape(finishedReply)}"]`)
        ?.innerText.replace(/\s+/g, ' ')
        .trim();
      if (shown) setText((line) => (line.startsWith(`${agentName}: `) ? `${agentName}: ${shown.slice(0, 600)}` : line));
    });
    return () => cancelAnimationFrame(frame);
  }, [finishedReply, agentName]);

  return (
    <div className="sr-only" role="status" aria-live="polite" aria-atomic="true" data-testid="announcer">
      {text}
    </div>
  );
}
