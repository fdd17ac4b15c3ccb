// Class names joined, later Tailwind utilities winning over earlier ones (a variant's
// padding replaced by the caller's), as components written in the shadcn style expect.
import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
