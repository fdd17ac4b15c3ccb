// The pages a model cites as an AG-UI client sees them (docs/internals/architecture.md, "Reasoning and
// provider metadata"): the real @ag-ui/client HttpAgent reading the wire's SSE of a real run on a
// model that cites a source, as the route serves it.
import type { BaseEvent, Message } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { inProcessAgUiClient } from '../../../tests/support/agui-in-process';
import { defineDeepAgent } from '../../authoring';

const CITED = { url: 'https://docs.ag-ui.com/concepts/events', title: 'AG-UI events' };

/** A model whose every reply cites CITED before its text, as a provider with web search does. */
function citingModel() {
  return new MockLanguageModelV4({
    provider: 'mock',
    modelId: 'citer',
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: 'stream-start', warnings: [] },
          { type: 'source', sourceType: 'url', id: 'src-1', ...CITED },
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: 'AG-UI streams typed events.' },
          { type: 'text-end', id: 't1' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage() },
        ],
      }),
    }),
  });
}

function usage() {
  return {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
}

const agent = defineDeepAgent({ name: 'citer', model: citingModel(), instructions: 'Cite.' });

const client = () => inProcessAgUiClient(agent);

const roles = (messages: Message[]) => messages.map((message) => message.role);

describe('sources on the AG-UI wire', () => {
  it('a reply’s sources follow it as an activity message, live and in the next run’s snapshot', async () => {
    const { http, events, send } = client();
    await send('how does AG-UI stream?');
    for (const event of events) expect(EventSchemas.safeParse(event).success).toBe(true);
    expect(roles(http.messages)).toEqual(['user', 'assistant', 'activity']);
    const reply = http.messages[1]!;
    expect(http.messages[2]).toMatchObject({
      id: `sources:${reply.id}`,
      activityType: 'stackbone.sources',
      content: { messageId: reply.id, sources: [CITED] },
    });

    await send('thanks');
    const snapshot = events.find((event) => event.type === 'MESSAGES_SNAPSHOT') as (BaseEvent & { messages: Message[] }) | undefined;
    expect(roles(snapshot!.messages)).toEqual(['user', 'assistant', 'activity', 'user']);
    expect(roles(http.messages)).toEqual(['user', 'assistant', 'activity', 'user', 'assistant', 'activity']);
  });
});
