// Form controls in the app's look: a text input, a text area, a select, and a label with its hint.
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';

const control =
  'w-full rounded-md border border-input bg-card px-3 py-2 text-sm text-foreground shadow-xs placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(control, 'h-9', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(control, 'resize-y', className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(control, 'h-9', className)} {...props} />;
}

/** A labelled control: the label, an optional hint under it, the control, and what is wrong with its value, right under it. */
export function Field({
  label,
  hint,
  error,
  errorId,
  children,
  className,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** The error's id, for the control's aria-describedby. */
  errorId?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <label className={cn('grid gap-1.5 text-sm', className)}>
      <span className="font-medium text-foreground">{label}</span>
      {children}
      {hint && <span className="text-xs text-muted-foreground">{hint}</span>}
      {error && (
        <span id={errorId} className="text-xs font-medium text-destructive" data-testid="field-error">
          {error}
        </span>
      )}
    </label>
  );
}
