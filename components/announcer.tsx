'use client';
// What a screen reader hears of the chat: each finished reply once, whole ("Support: …"), an
// approval or question when it opens, a failure and a stop — never each streamed token or
// tool-call JSON (the message list itself is not a live region).
import type { Message } from '@ag-ui/client';
import { useEffect, useRef, useState } from 'react';
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
  const streamingRef = useRef(streamingMessageId);
  const seenInterrupts = useRef(new Set(interrupts.map((interrupt) => interrupt.id)));

  useEffect(() => {
    const finished = streamingRef.current;
    streamingRef.current = streamingMessageId;
    if (!finished || finished === streamingMessageId) return;
    const message = messages.find((candidate) => candidate.id === finished);
    if (message && 'content' in message && typeof message.content === 'string' && message.content) setText(`${agentName}: ${message.content.slice(0, 600)}`);
  }, [streamingMessageId, messages, agentName]);

  useEffect(() => {
    const opened = interrupts.filter((interrupt) => !seenInterrupts.current.has(interrupt.id));
    for (const interrupt of opened) seenInterrupts.current.add(interrupt.id);
    if (opened.length > 0)
      setText(opened.map((interrupt) => `${interrupt.reason === 'input_required' ? 'Question' : 'Needs your approval'}: ${interrupt.message ?? ''}`).join('. '));
  }, [interrupts]);

  useEffect(() => {
    if (error) setText(`Failed: ${error}`);
  }, [error]);

  useEffect(() => {
    if (stopped) setText('Stopped.');
  }, [stopped]);

  return (
    <div className="sr-only" role="status" aria-live="polite" aria-atomic="true" data-testid="announcer">
      {text}
    </div>
  );
}
