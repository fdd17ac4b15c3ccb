'use client';
// One tool call, collapsed to a line by default: what was done (the tool's title), a one-line
// gist of the arguments that ran, and its true status. Expanding shows the arguments and the
// result in full. After a decision the line says what the person decided (decision-line.tsx)
// and the arguments are the ones that ran (an edited amount shows as edited).
import type { ToolCall, ToolMessage } from '@ag-ui/client';
import {
  ChevronRightIcon,
  CircleCheckIcon,
  CircleSlashIcon,
  CircleXIcon,
  Loader2Icon,
  MessageCircleQuestionIcon,
  OctagonXIcon,
  ShieldQuestionIcon,
  Undo2Icon,
  WrenchIcon,
} from 'lucide-react';
import { Collapsible } from 'radix-ui';
import { useState, type ReactNode } from 'react';
import { labelledFields, parseJson, summarize, words } from './format-value';
import type { JsonSchema } from './hooks/json-schema';
import { Badge, type BadgeTone } from './ui/badge';

/** What the chat knows of a tool from its agent: a title and its input schema (labels, formats). */
export interface ToolInfo {
  title?: string;
  inputSchema?: JsonSchema;
}

export type ToolCallStatus = 'running' | 'waiting' | 'approval' | 'question' | 'done' | 'rejected' | 'withdrawn' | 'failed' | 'stopped';

export interface ToolCallCardProps {
  call: ToolCall;
  result?: ToolMessage;
  /** The latest preliminary output of a tool that streams them, while it runs. */
  progress?: unknown;
  /** The call's status; the list works it out from the result, the run and the decision. */
  status: ToolCallStatus;
  tool?: ToolInfo;
  /** The arguments that ran, when a person edited them. */
  ranWith?: unknown;
  /** What the person decided, shown under the line. */
  decision?: ReactNode;
}

const STATUS: Record<ToolCallStatus, { label: string; tone: BadgeTone; icon: ReactNode }> = {
  running: { label: 'Running', tone: 'progress', icon: <Loader2Icon className="animate-spin" aria-hidden /> },
  waiting: { label: 'Waiting', tone: 'neutral', icon: null },
  approval: { label: 'Needs approval', tone: 'attention', icon: <ShieldQuestionIcon aria-hidden /> },
  question: { label: 'Needs your answer', tone: 'attention', icon: <MessageCircleQuestionIcon aria-hidden /> },
  done: { label: 'Done', tone: 'success', icon: <CircleCheckIcon aria-hidden /> },
  rejected: { label: 'Rejected', tone: 'danger', icon: <CircleXIcon aria-hidden /> },
  withdrawn: { label: 'Withdrawn', tone: 'neutral', icon: <Undo2Icon aria-hidden /> },
  failed: { label: 'Failed', tone: 'danger', icon: <OctagonXIcon aria-hidden /> },
  stopped: { label: 'Stopped', tone: 'neutral', icon: <CircleSlashIcon aria-hidden /> },
};

export function ToolCallCard({ call, result, progress, status, tool, ranWith, decision }: ToolCallCardProps) {
  const [open, setOpen] = useState(false);
  const asked = parseJson(call.function.arguments);
  const args = ranWith ?? asked;
  const title = tool?.title ?? words(call.function.name);
  const gist = status === 'running' && progress !== undefined ? summarize(progress) : gistOf(args, tool?.inputSchema);
  const { label, tone, icon } = STATUS[status];
  return (
    <Collapsible.Root
      open={open}
      onOpenChange={setOpen}
      className="rounded-lg border bg-card text-sm"
      data-testid="tool-call"
      data-tool-name={call.function.name}
      data-status={status}
    >
      <Collapsible.Trigger
        className="flex w-full min-w-0 items-center gap-2 rounded-lg px-3 py-2 text-left hover:bg-accent/60 focus-visible:outline-2 focus-visible:outline-ring"
        data-testid="tool-call-toggle"
      >
        <ChevronRightIcon className={`size-4 shrink-0 text-muted-foreground transition-transform ${open ? 'rotate-90' : ''}`} aria-hidden />
        <WrenchIcon className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
        <span className="shrink-0 font-medium">{title}</span>
        {gist && (
          <span className="min-w-0 truncate text-muted-foreground" data-testid="tool-call-gist">
            {gist}
          </span>
        )}
        <Badge tone={tone} className="ml-auto" data-testid="tool-call-status">
          {icon}
          {label}
        </Badge>
      </Collapsible.Trigger>
      {decision}
      <Collapsible.Content forceMount className="space-y-3 border-t px-3 py-3 data-[state=closed]:hidden" data-testid="tool-call-details">
        <Section label={ranWith === undefined ? 'Arguments' : 'Arguments (as edited, as they ran)'}>
          <Json testId="tool-args" text={ranWith === undefined ? call.function.arguments : JSON.stringify(ranWith)} />
        </Section>
        {!result && progress !== undefined && (
          <Section label="Progress">
            <Json testId="tool-progress" text={typeof progress === 'string' ? progress : JSON.stringify(progress)} />
          </Section>
        )}
        {result && (
          <Section label={result.error ? 'Error' : 'Result'}>
            <Json testId="tool-result" text={textOf(result.content)} />
          </Section>
        )}
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

function Section({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <div className="text-xs font-medium text-muted-foreground">{label}</div>
      {children}
    </div>
  );
}

function Json({ text, testId }: { text: string; testId: string }) {
  return (
    <pre
      className="max-h-72 overflow-auto rounded-md bg-muted px-3 py-2 font-mono text-xs leading-relaxed whitespace-pre-wrap break-words"
      data-testid={testId}
    >
      {pretty(text)}
    </pre>
  );
}

/** The arguments in one line: each labelled, formatted value (`Invoice inv_7 · Amount $15.00`). */
function gistOf(args: unknown, schema?: JsonSchema): string {
  const fields = labelledFields(args, schema);
  if (fields.length === 0) return '';
  const line = fields.map((field) => (fields.length === 1 ? field.text : `${field.label} ${field.text}`)).join(' · ');
  return line.length > 90 ? `${line.slice(0, 89)}…` : line;
}

/** JSON pretty-printed; anything else (including half-streamed JSON) as it is. */
function pretty(text: string): string {
  const value = parseJson(text);
  return value === undefined ? text : JSON.stringify(value, null, 2);
}

function textOf(content: ToolMessage['content']): string {
  return typeof content === 'string' ? content : content.map((part) => ('text' in part ? String(part.text) : `[${part.type}]`)).join('');
}
