'use client';
// Studio's live feed: one stream per tab of "this session of yours changed", from any process
// (GET /api/studio/stream). Each change invalidates the queries it touches, so the inbox and
// the audit trail re-read at once: a decision made elsewhere disappears, a new pause appears.
// Read with fetch, so that a refused feed (not signed in) backs off instead of retrying each second.
import { useQueryClient } from '@tanstack/react-query';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { useEffect } from 'react';

export function useStudioFeed(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const controller = new AbortController();
    let retryMs = 1000;
    async function listen() {
      while (!controller.signal.aborted) {
        try {
          const response = await fetch('/api/studio/stream', { signal: controller.signal });
          if (!response.ok || !response.body) throw new Error(`feed: HTTP ${response.status}`);
          // Whatever changed while the feed was down: read everything again.
          void queryClient.invalidateQueries({ queryKey: ['studio'] });
          const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            const { sessionId } = JSON.parse(value.data) as { sessionId: string };
            void queryClient.invalidateQueries({ queryKey: ['studio', 'inbox'] });
            void queryClient.invalidateQueries({ queryKey: sessionId === '*' ? ['studio', 'audit'] : ['studio', 'audit', sessionId] });
          }
          retryMs = 1000;
        } catch {
          if (controller.signal.aborted) return;
          retryMs = Math.min(retryMs * 2, 15_000);
        }
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    }
    void listen();
    return () => controller.abort();
  }, [queryClient]);
}
