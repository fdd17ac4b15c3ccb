'use client';
// Studio's inbox data (docs/studio.md): GET /api/hitl a page at a time, the caller's own requests
// first; "Load more" asks for the next page. A link to one decision (`/studio?decision=<id>`) loads
// pages until that decision is on one, so it is found wherever it waits.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { InboxFilter } from '@/server/contract';
import { fetchInboxPage } from './studio-api';

/** The most pages loaded by themselves to find a linked decision (50 each); past them, "Load more" goes on. */
const FOCUS_PAGES = 10;

export function useInbox(filter: InboxFilter, focus?: string) {
  const query = useInfiniteQuery({
    queryKey: ['studio', 'inbox', filter],
    queryFn: ({ pageParam }) => fetchInboxPage(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const items = useMemo(() => {
    // Pages are read at different times: one decision is shown once, where it was first listed.
    const seen = new Set<string>();
    return (data?.pages ?? []).flatMap((page) => page.interrupts).filter((item) => !seen.has(item.id) && Boolean(seen.add(item.id)));
  }, [data]);
  const pages = data?.pages.length ?? 0;
  const focusMissing = focus !== undefined && data !== undefined && !items.some((item) => item.id === focus);
  useEffect(() => {
    if (focusMissing && hasNextPage && !isFetchingNextPage && pages < FOCUS_PAGES) void fetchNextPage();
  }, [focusMissing, hasNextPage, isFetchingNextPage, pages, fetchNextPage]);
  return {
    items,
    loaded: data !== undefined,
    error: query.error,
    hasMore: hasNextPage,
    loadingMore: isFetchingNextPage,
    loadMore: () => void fetchNextPage(),
  };
}
