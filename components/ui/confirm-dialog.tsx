'use client';
// A question with two answers over the page (Radix AlertDialog): the safe answer has focus, so
// Enter or Space never confirms by accident; Escape, the backdrop and Cancel all answer no.
import { AlertDialog } from 'radix-ui';
import { useRef, type ReactNode } from 'react';
import { Button } from './button';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: ReactNode;
  /** Under the description: what the person must see before answering (a link's address). */
  children?: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
  /** `data-testid`s of the dialog and its two buttons. */
  testIds: { dialog: string; cancel: string; confirm: string };
}

export function ConfirmDialog({ open, title, description, children, cancelLabel, confirmLabel, onCancel, onConfirm, testIds }: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <AlertDialog.Content
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 space-y-4 rounded-xl border bg-card p-5 text-card-foreground shadow-xl"
          data-testid={testIds.dialog}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            cancelRef.current?.focus();
          }}
        >
          <AlertDialog.Title className="text-base font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="space-y-1 text-sm">{description}</div>
          </AlertDialog.Description>
          {children}
          <div className="flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button ref={cancelRef} data-testid={testIds.cancel}>
                {cancelLabel}
              </Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant="primary" data-testid={testIds.confirm} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
