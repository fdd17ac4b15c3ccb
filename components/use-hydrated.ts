'use client';
// true once React has hydrated this page in the browser. Controls stay disabled until then,
// so nothing a user (or a test) clicks before hydration is silently lost.
import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
