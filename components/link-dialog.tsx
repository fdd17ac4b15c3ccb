'use client';
// "Open this link?": a link in a model's text opens only after the reader has seen the whole
// address (docs/security.md, "Browsers"). Link text can say anything and a prompt injection
// can write it, so the address is shown as it is, and the safe answer has focus.
import { AlertDialog } from 'radix-ui';
import { useRef } from 'react';
import type { LinkSafetyModalProps } from 'streamdown';
import { Button } from './ui/button';

export function LinkDialog({ isOpen, onClose, onConfirm, url }: LinkSafetyModalProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <AlertDialog.Root open={isOpen} onOpenChange={(open) => !open && onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <AlertDialog.Content
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 space-y-4 rounded-xl border bg-card p-5 text-card-foreground shadow-xl"
          data-testid="link-dialog"
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            cancelRef.current?.focus();
          }}
        >
          <AlertDialog.Title className="text-base font-semibold">Open this link?</AlertDialog.Title>
          <AlertDialog.Description className="text-sm text-muted-foreground">It opens in a new tab, at this address:</AlertDialog.Description>
          <p className="max-h-32 overflow-y-auto rounded-md bg-muted p-3 font-mono text-sm break-all" data-testid="link-dialog-url">
            {url}
          </p>
          <div className="flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button ref={cancelRef} data-testid="link-dialog-cancel">
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant="primary" data-testid="link-dialog-open" onClick={onConfirm}>
                Open link
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
