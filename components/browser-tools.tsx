'use client';
// Tools the page runs for the agent (docs/internals/wires.md, "Frontend tools"): offered with every run
// through RunAgentInput.tools; the model calls them, the browser answers, and the result goes
// back as the trailing tool message so the turn goes on.
//   confirm_action       asks the person in a dialog; answers {confirmed, action}
//   get_browser_context  reads the browser: local time, time zone, locale, colour scheme
import { useMemo, useState, type ReactNode } from 'react';
import type { FrontendTool } from './hooks/useAgent';
import { ConfirmDialog } from './ui/confirm-dialog';

interface PendingConfirmation {
  action: string;
  details?: string;
  answer: (confirmed: boolean) => void;
}

/** What the chat calls each of these tools, as a server tool's `title` names it: a person reads them in the transcript. */
export const BROWSER_TOOL_TITLES: Record<string, string> = {
  confirm_action: 'Your confirmation',
  get_browser_context: 'Your local time and language',
};

export function useBrowserTools(): { tools: FrontendTool[]; dialog: ReactNode } {
  const [pending, setPending] = useState<PendingConfirmation | null>(null);

  const tools = useMemo<FrontendTool[]>(
    () => [
      {
        name: 'confirm_action',
        description: 'Ask the user to confirm an action in a dialog before you take it. Answers {confirmed: boolean}.',
        parameters: {
          type: 'object',
          properties: {
            action: { type: 'string', description: 'What you are about to do, as the user will read it' },
            details: { type: 'string', description: 'Anything the user should know first' },
          },
          required: ['action'],
        },
        handler: ({ action, details }: { action: string; details?: string }, { signal }) =>
          new Promise((resolve) => {
            let settled = false;
            // The dialog closing after either button answers again: the first answer stands.
            const answer = (confirmed: boolean) => {
              if (settled) return;
              settled = true;
              setPending(null);
              // `summary`: the line a model (the scripted one too) can quote as it is.
              resolve({ confirmed, action, summary: confirmed ? `You confirmed: ${action}.` : `You did not confirm: ${action}.` });
            };
            // A stopped run takes the question back.
            signal.addEventListener('abort', () => answer(false), { once: true });
            setPending({ action, details, answer });
          }),
      },
      {
        name: 'get_browser_context',
        description: "Read the user's browser: local time, time zone, locale and colour scheme.",
        parameters: { type: 'object', properties: {} },
        handler: () => {
          const localTime = new Date().toLocaleString();
          const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
          const colorScheme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
          return {
            localTime,
            timeZone,
            locale: navigator.language,
            colorScheme,
            summary: `It is ${localTime} for you (${timeZone}, ${navigator.language}); your screen is in ${colorScheme} mode.`,
          };
        },
      },
    ],
    [],
  );

  // A destructive or irreversible action may be behind the question: the safe answer has focus.
  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      title="The agent asks you to confirm"
      description={
        <>
          <strong className="block">{pending?.action}</strong>
          {pending?.details && <span className="block text-muted-foreground">{pending.details}</span>}
        </>
      }
      cancelLabel="Don’t"
      confirmLabel="Confirm"
      onCancel={() => pending?.answer(false)}
      onConfirm={() => pending?.answer(true)}
      testIds={{ dialog: 'confirm-dialog', cancel: 'confirm-no', confirm: 'confirm-yes' }}
    />
  );

  return { tools, dialog };
}
