// Preliminary tool outputs over AG-UI against real servers (docs/turn-control.md, "Concurrent
// tools"): the researcher's searchNotes streams its progress, which reaches the client as
// ACTIVITY_SNAPSHOT updates of one activity message before the call's one TOOL_CALL_RESULT, is
// kept in the log, and replays to a client that joins the run later.
import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { joinStream, postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { readSessionEvents } from '../support/inspect';

type Activity = BaseEvent & {
  messageId: string;
  activityType: string;
  replace: boolean;
  content: { toolCallId: string; output: { status?: string; read?: number } };
};

for (const server of backends()) {
  describe(`preliminary tool outputs on ${server.kind}`, () => {
    it('progress streams as ACTIVITY_SNAPSHOT before the one TOOL_CALL_RESULT, is kept in the log and replays', async () => {
      const threadId = randomUUID();
      const runId = randomUUID();
      const { events } = await postRun(server.url, 'librarian', { threadId, runId, messages: [userMessage('launch timing')] });
      const types: string[] = events.map((event) => event.type);
      const activities = events.filter((event) => event.type === 'ACTIVITY_SNAPSHOT') as Activity[];
      expect(activities.length).toBe(4);
      expect(activities.slice(0, 3).map((event) => event.content.output)).toEqual(
        [0, 1, 2].map((read) => ({ query: 'launch timing', status: 'searching', read, of: 3 })),
      );
      const [call] = new Set(activities.map((event) => event.content.toolCallId));
      expect(new Set(activities.map((event) => event.messageId))).toEqual(new Set([`progress:${call}`]));
      expect(activities.every((event) => event.activityType === 'stackbone.tool_progress' && event.replace === true)).toBe(true);
      const results = events.filter((event) => event.type === 'TOOL_CALL_RESULT') as (BaseEvent & { toolCallId: string; content: string })[];
      expect(results).toHaveLength(1);
      expect(results[0]!.toolCallId).toBe(call);
      expect(JSON.parse(results[0]!.content)).toMatchObject({ hits: [{ topic: 'launch' }] });
      expect(types.lastIndexOf('ACTIVITY_SNAPSHOT')).toBeLessThan(types.indexOf('TOOL_CALL_RESULT'));

      const log = await readSessionEvents(server.databaseUrl, threadId);
      expect(log.filter((event) => event.type === 'tool_progress')).toHaveLength(4);
      const replay = await joinStream(server.url, 'librarian', { threadId, runId, offset: '-1' });
      expect(replay.events.filter((event) => event.type === 'ACTIVITY_SNAPSHOT')).toHaveLength(4);

      // A client sending its history back, progress included (as HttpAgent does), is not refused.
      const history = [
        ...events.filter((event) => event.type === 'MESSAGES_SNAPSHOT').flatMap((event) => (event as unknown as { messages: unknown[] }).messages),
      ];
      const next = await postRun(server.url, 'librarian', {
        threadId,
        runId: randomUUID(),
        messages: [
          ...history,
          { id: `progress:${call}`, role: 'activity', activityType: 'stackbone.tool_progress', content: activities.at(-1)!.content },
          userMessage('pricing'),
        ],
      });
      expect(next.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    });
  });
}
