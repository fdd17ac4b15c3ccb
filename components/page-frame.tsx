// A page other than the chat: it scrolls inside the app's main area (app/layout.tsx), centred,
// with room at the sides on a phone; and its heading with a line saying what the page is for.
import type { ReactNode } from 'react';
import { cn } from './ui/cn';

export function PageFrame({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <div className={cn('mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-10', className)}>{children}</div>
    </div>
  );
}

export function PageHeader({ title, description, before, children }: { title: ReactNode; description?: ReactNode; before?: ReactNode; children?: ReactNode }) {
  return (
    <header className="mb-6 space-y-2 sm:mb-8">
      {before}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-balance sm:text-3xl">{title}</h1>
        {children}
      </div>
      {description && <p className="max-w-2xl text-sm text-pretty text-muted-foreground sm:text-base">{description}</p>}
    </header>
  );
}
