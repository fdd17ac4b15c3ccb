'use client';
// A panel that slides in from the side over the page (Radix Dialog): the phone layout's
// conversation list. Focus moves into it and back, Escape and the backdrop close it.
import { XIcon } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';

export const Sheet = Dialog.Root;
export const SheetTrigger = Dialog.Trigger;

export function SheetContent({
  title,
  description,
  side = 'left',
  className,
  children,
  ...props
}: ComponentProps<typeof Dialog.Content> & { title: string; description?: string; side?: 'left' | 'right'; children: ReactNode }) {
  return (
    <Dialog.Portal>
      <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
      <Dialog.Content
        className={cn(
          'fixed inset-y-0 z-50 flex w-[85vw] max-w-xs flex-col bg-background shadow-xl outline-none',
          side === 'left' ? 'left-0 border-r' : 'right-0 border-l',
          className,
        )}
        {...(description ? {} : { 'aria-describedby': undefined })}
        {...props}
      >
        <div className="flex h-12 items-center justify-between border-b px-3">
          <Dialog.Title className="text-sm font-semibold">{title}</Dialog.Title>
          <Dialog.Close className="inline-flex size-8 items-center justify-center rounded-md hover:bg-accent" aria-label="Close">
            <XIcon className="size-4" aria-hidden />
          </Dialog.Close>
        </div>
        {description && <Dialog.Description className="sr-only">{description}</Dialog.Description>}
        <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
      </Dialog.Content>
    </Dialog.Portal>
  );
}
