// Retry over AG-UI against real servers (docs/turn-control.md): a failed turn runs again with
// its partial reply gone; the same retryId sent twice at once is one retry; a new retry while
// one runs is refused as busy; a turn that did not fail has nothing to retry.
import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { postRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { readSessionEvents } from '../support/inspect';

const last = (events: BaseEvent[]) => events.at(-1) as BaseEvent & { code?: string; outcome?: { type: string } };
const retryBody = (threadId: string, retryId: string) => ({ threadId, runId: randomUUID(), messages: [], forwardedProps: { retry: { retryId } } });

for (const server of backends()) {
  describe(`retry on ${server.kind}`, () => {
    it('runs a failed turn again: the partial reply goes, the full reply comes, completed input stays', async () => {
      const threadId = randomUUID();
      const failed = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('fail once after 3 words')] });
      expect(last(failed.events)).toMatchObject({ type: 'RUN_ERROR', code: 'model_error' });
      expect((await readThread(server.url, 'helpdesk', threadId)).body.status).toBe('error');

      const retried = await postRun(server.url, 'helpdesk', retryBody(threadId, randomUUID()));
      expect(last(retried.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      const thread = (await readThread(server.url, 'helpdesk', threadId)).body as {
        status: string;
        messages: { role: string; parts: { type: string; content?: string }[] }[];
      };
      expect(thread.status).toBe('idle');
      expect(
        thread.messages.map((message) => [
          message.role,
          message.parts
            .filter((part) => part.type === 'text')
            .map((part) => part.content)
            .join(''),
        ]),
      ).toEqual([
        ['user', 'fail once after 3 words'],
        ['assistant', 'token1 token2 token3'],
      ]);
    });

    it('the same retry sent twice at once is one retry; both responses show it', async () => {
      const threadId = randomUUID();
      await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('fail once after 3 words')] });
      const retryId = randomUUID();
      const [one, two] = await Promise.all([
        postRun(server.url, 'helpdesk', retryBody(threadId, retryId)),
        postRun(server.url, 'helpdesk', retryBody(threadId, retryId)),
      ]);
      expect(last(one.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect(last(two.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      const retries = (await readSessionEvents(server.databaseUrl, threadId)).filter((event) => event.type === 'run_started' && event.retry);
      expect(retries).toHaveLength(1);
    });

    it('a new retry while one runs is refused as busy; after the turn succeeded there is nothing to retry', async () => {
      const threadId = randomUUID();
      await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('slowly fail once after 20 words')] });
      const first = postRun(server.url, 'helpdesk', retryBody(threadId, randomUUID()));
      // Wait until the retry has taken the thread.
      for (let tries = 0; tries < 100 && (await readThread(server.url, 'helpdesk', threadId)).body.status !== 'running'; tries++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const second = await postRun(server.url, 'helpdesk', retryBody(threadId, randomUUID()));
      expect(last(second.events)).toMatchObject({ type: 'RUN_ERROR', code: 'session_busy' });
      expect(last((await first).events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });

      const third = await postRun(server.url, 'helpdesk', retryBody(threadId, randomUUID()));
      expect(last(third.events)).toMatchObject({ type: 'RUN_ERROR', code: 'nothing_to_retry' });
    });
  });
}

for (const server of backends()) {
  describe(`retry over HTTP (the chat wires' sessions) on ${server.kind}`, () => {
    it('POST /api/v1/sessions/{key}/retry runs the failed turn again; its reply is in the session history', async () => {
      const key = randomUUID();
      const failed = await fetch(`${server.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-stackbone-session': key },
        body: JSON.stringify({ model: 'helpdesk', messages: [{ role: 'user', content: 'fail once after 3 words' }] }),
      });
      expect(failed.status).toBe(500);
      const retry = async (retryId: string) => {
        const response = await fetch(`${server.url}/api/v1/sessions/${key}/retry`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ retryId }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { code: string } } };
      };
      // A retryId is a client id like any other: 1 to 256 printable characters (docs/security.md).
      expect(await retry('')).toMatchObject({ status: 400, body: { error: { code: 'invalid_id', field: 'retryId' } } });
      expect(await retry('r-1')).toMatchObject({ status: 202, body: { threadId: key, retryId: 'r-1' } });

      const history = async () =>
        (await (await fetch(`${server.url}/api/v1/sessions/${key}`)).json()) as { status: string; messages: { role: string; content: string | null }[] };
      for (let tries = 0; tries < 100 && (await history()).status === 'running'; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      const { status, messages } = await history();
      expect(status).toBe('idle');
      expect(messages.map((message) => [message.role, message.content])).toEqual([
        ['user', 'fail once after 3 words'],
        ['assistant', 'token1 token2 token3'],
      ]);
      expect(await retry('r-2')).toMatchObject({ status: 409, body: { error: { code: 'nothing_to_retry' } } });
      expect(
        (
          await fetch(`${server.url}/api/v1/sessions/${randomUUID()}/retry`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"retryId":"x"}',
          })
        ).status,
      ).toBe(404);
    });
  });
}
