'use client';
// The app's client-side providers: one TanStack Query client for every list and read, which
// the live streams invalidate (docs/studio.md), and who the viewer is.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ViewerContext, type Viewer } from './viewer';

export function Providers({ children, viewer }: { children: ReactNode; viewer: Viewer }) {
  // Live streams say when data changed; a refetch on focus on top of that would only add load.
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: 1 } } }));
  return (
    <QueryClientProvider client={client}>
      <ViewerContext value={viewer}>{children}</ViewerContext>
    </QueryClientProvider>
  );
}
