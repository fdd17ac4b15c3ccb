'use client';
// "Open this link?": a link in a model's text opens only after the reader has seen the whole
// address (docs/security.md, "Browsers"). Link text can say anything and a prompt injection
// can write it, so the address is shown as it is, and the safe answer has focus.
import type { LinkSafetyModalProps } from 'streamdown';
import { ConfirmDialog } from './ui/confirm-dialog';

export function LinkDialog({ isOpen, onClose, onConfirm, url }: LinkSafetyModalProps) {
  return (
    <ConfirmDialog
      open={isOpen}
      title="Open this link?"
      description={<p className="text-muted-foreground">It opens in a new tab, at this address:</p>}
      cancelLabel="Cancel"
      confirmLabel="Open link"
      onCancel={onClose}
      onConfirm={onConfirm}
      testIds={{ dialog: 'link-dialog', cancel: 'link-dialog-cancel', confirm: 'link-dialog-open' }}
    >
      <p className="max-h-32 overflow-y-auto rounded-md bg-muted p-3 font-mono text-sm break-all" data-testid="link-dialog-url">
        {url}
      </p>
    </ConfirmDialog>
  );
}
