// Steering over HTTP against real servers (docs/turn-control.md, "Steer"): guidance sent while
// a turn streams joins that same run — its stream shows the guidance and the answer to it — and
// guidance for a turn that is not running is refused.
import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { openRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { readSessionEvents } from '../support/inspect';

async function steer(url: string, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { code: string } } };
}

for (const server of backends()) {
  describe(`steer on ${server.kind}`, () => {
    it('guidance sent while the turn streams joins that run, which answers it; afterwards there is nothing to steer', async () => {
      const threadId = randomUUID();
      const runId = randomUUID();
      const streaming = openRun(server.url, 'helpdesk', { threadId, runId, messages: [userMessage('slowly reply with 30 tokens')] });
      for (let tries = 0; tries < 100 && (await readThread(server.url, 'helpdesk', threadId)).body?.status !== 'running'; tries++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await steer(server.url, '/api/agents/helpdesk/steer', { threadId, runId, text: 'also say hello', id: 'steer-1' })).toMatchObject({
        status: 202,
        body: { threadId, runId, messageId: 'steer-1' },
      });

      const { events } = await streaming;
      expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', runId });
      const snapshots = events.filter((event) => event.type === 'MESSAGES_SNAPSHOT') as (BaseEvent & { messages: { id: string }[] })[];
      expect(snapshots.at(-1)!.messages.map((message) => message.id)).toContain('steer-1');
      const text = events
        .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
        .map((event) => (event as unknown as { delta: string }).delta)
        .join('');
      expect(text).toContain('token30');
      expect(text).toContain('also say hello');
      expect((await readSessionEvents(server.databaseUrl, threadId)).filter((event) => event.type === 'run_started')).toHaveLength(1);

      expect(await steer(server.url, `/api/v1/sessions/${threadId}/steer`, { text: 'too late' })).toMatchObject({
        status: 409,
        body: { error: { code: 'not_running' } },
      });
      expect(await steer(server.url, `/api/v1/sessions/${randomUUID()}/steer`, { text: 'x' })).toMatchObject({ status: 404 });
      expect(await steer(server.url, '/api/agents/helpdesk/steer', { threadId, text: '' })).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request' } },
      });
    });
  });
}
