'use client';
// The conversation: user and assistant turns, with each assistant tool call shown as a card
// holding its result (tool messages are not rendered on their own), and the approval card of
// a call that waits on a person right under it.
import type { AssistantMessage, Message, ToolMessage, UserMessage } from '@ag-ui/client';
import { useEffect, useRef, type ReactNode } from 'react';
import { ApprovalCard } from './approval-card';
import type { PendingInterrupt } from './hooks/useAgent';
import { batchPosition } from './interrupt-panel';
import { ToolCallCard } from './tool-call';
import { TOOL_PROGRESS } from '@/server/contract';

export interface MessageListProps {
  messages: readonly Message[];
  running: boolean;
  streamingMessageId: string | null;
  /** Subagent steps in progress. */
  activeSteps: readonly string[];
  /** Open interrupts; each renders next to the tool call it belongs to. */
  interrupts?: readonly PendingInterrupt[];
  /** What an empty conversation shows (a line of text, or prompts to start with). */
  empty?: ReactNode;
}

export function MessageList({ messages, running, streamingMessageId, activeSteps, interrupts = [], empty }: MessageListProps) {
  const results = toolResults(messages);
  const progress = toolProgress(messages);
  const endRef = useRef<HTMLDivElement>(null);
  const last = messages.at(-1);
  const lastLength = last && 'content' in last && typeof last.content === 'string' ? last.content.length : 0;

  // Follow the conversation as it grows, including while text streams in.
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, lastLength, activeSteps.length]);

  const calledIds = toolCallIds(messages);
  const visible = messages.filter((message) => isShown(message, calledIds));
  return (
    <div className="message-list" data-testid="message-list" aria-live="polite">
      {visible.length === 0 && (empty ?? <p className="message-list-empty">No messages yet.</p>)}
      {visible.map((message) => {
        switch (message.role) {
          case 'user':
            return <UserBubble key={message.id} message={message} />;
          case 'assistant':
            return (
              <AssistantTurn
                key={message.id}
                message={message}
                results={results}
                progress={progress}
                interrupts={interrupts}
                running={running}
                streaming={message.id === streamingMessageId}
              />
            );
          case 'tool':
            // A result whose call is not in the list (e.g. trimmed history): show it plainly.
            return (
              <ToolCallCard
                key={message.id}
                call={{ id: message.toolCallId, type: 'function', function: { name: 'tool', arguments: '' } }}
                result={message}
                running={running}
              />
            );
          default:
            return (
              <div key={message.id} className="message message-system" data-testid={`message-${message.role}`}>
                {'content' in message && typeof message.content === 'string' ? message.content : null}
              </div>
            );
        }
      })}
      {activeSteps.map((step, index) => (
        <div key={`${step}-${index}`} className="step-indicator" data-testid="active-step">
          <span className="spinner" aria-hidden /> Delegated to <strong>{step}</strong>…
        </div>
      ))}
      {running && !streamingMessageId && activeSteps.length === 0 && (
        <div className="thinking" data-testid="thinking">
          <span className="spinner" aria-hidden /> Working…
        </div>
      )}
      <div ref={endRef} />
    </div>
  );
}

function UserBubble({ message }: { message: UserMessage }) {
  const text =
    typeof message.content === 'string' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('');
  return (
    <div className="message message-user" data-testid="message-user">
      <div className="message-body">{text}</div>
    </div>
  );
}

function AssistantTurn({
  message,
  results,
  progress,
  interrupts,
  running,
  streaming,
}: {
  message: AssistantMessage;
  results: Map<string, ToolMessage>;
  progress: Map<string, unknown>;
  interrupts: readonly PendingInterrupt[];
  running: boolean;
  streaming: boolean;
}) {
  return (
    <div className="message message-assistant" data-testid="message-assistant" data-streaming={streaming || undefined}>
      {message.content ? (
        <div className="message-body">
          {message.content}
          {streaming && <span className="cursor" aria-hidden />}
        </div>
      ) : null}
      {message.toolCalls?.map((call) => {
        const interrupt = interrupts.find((candidate) => candidate.toolCallId === call.id);
        return (
          <div key={call.id} className="tool-call-group">
            <ToolCallCard call={call} result={results.get(call.id)} progress={progress.get(call.id)} running={running} awaitingDecision={Boolean(interrupt)} />
            {interrupt && <ApprovalCard interrupt={interrupt} busy={running} batch={batchPosition(interrupts, interrupt)} />}
          </div>
        );
      })}
    </div>
  );
}

function toolResults(messages: readonly Message[]): Map<string, ToolMessage> {
  const results = new Map<string, ToolMessage>();
  for (const message of messages) if (message.role === 'tool') results.set(message.toolCallId, message);
  return results;
}

/** The latest preliminary output of each running tool: the server's tool-progress activity messages. */
function toolProgress(messages: readonly Message[]): Map<string, unknown> {
  const progress = new Map<string, unknown>();
  for (const message of messages) {
    if (message.role !== 'activity' || message.activityType !== TOOL_PROGRESS) continue;
    const content = message.content as { toolCallId?: unknown; output?: unknown };
    if (typeof content.toolCallId === 'string') progress.set(content.toolCallId, content.output);
  }
  return progress;
}

function toolCallIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) if (message.role === 'assistant') for (const call of message.toolCalls ?? []) ids.add(call.id);
  return ids;
}

/** Tool results render inside their call's card; reasoning and activity are not shown yet. */
function isShown(message: Message, calledIds: Set<string>): boolean {
  if (message.role === 'reasoning' || message.role === 'activity') return false;
  if (message.role === 'tool') return !calledIds.has(message.toolCallId);
  if (message.role === 'assistant') return Boolean(message.content) || Boolean(message.toolCalls?.length);
  return true;
}
