'use client';
// Tools the page runs for the agent (docs/wires.md, "Frontend tools"): offered with every run
// through RunAgentInput.tools; the model calls them, the browser answers, and the result goes
// back as the trailing tool message so the turn goes on.
//   confirm_action       asks the person in a dialog; answers {confirmed, action}
//   get_browser_context  reads the browser: local time, time zone, locale, colour scheme
import { useMemo, useRef, useState, type ReactNode } from 'react';
import type { FrontendTool } from './hooks/useAgent';

interface PendingConfirmation {
  action: string;
  details?: string;
  answer: (confirmed: boolean) => void;
}

export function useBrowserTools(): { tools: FrontendTool[]; dialog: ReactNode } {
  const [pending, setPending] = useState<PendingConfirmation | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);

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
            const answer = (confirmed: boolean) => {
              setPending(null);
              resolve({ confirmed, action });
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
        handler: () => ({
          localTime: new Date().toLocaleString(),
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          locale: navigator.language,
          colorScheme: window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
        }),
      },
    ],
    [],
  );

  const dialog = pending && (
    <div className="dialog-backdrop">
      <div
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        aria-describedby="confirm-details"
        data-testid="confirm-dialog"
        onKeyDown={(event) => {
          if (event.key === 'Escape') pending.answer(false);
        }}
      >
        <h2 id="confirm-title" className="dialog-title">
          The agent asks you to confirm
        </h2>
        <p id="confirm-details" className="dialog-body">
          <strong>{pending.action}</strong>
          {pending.details ? (
            <>
              <br />
              {pending.details}
            </>
          ) : null}
        </p>
        <div className="dialog-actions">
          <button type="button" className="button" data-testid="confirm-no" onClick={() => pending.answer(false)}>
            Don’t
          </button>
          <button type="button" className="button button-primary" data-testid="confirm-yes" ref={confirmRef} autoFocus onClick={() => pending.answer(true)}>
            Confirm
          </button>
        </div>
      </div>
    </div>
  );

  return { tools, dialog };
}
