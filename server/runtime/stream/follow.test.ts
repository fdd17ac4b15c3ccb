import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import { createScriptedModel } from '../../models/scripted';
import { createMemoryStore } from '../../store/memory-store';
import { handlerContext } from '../tools/handler-context';
import { parseCursor } from './cursor';
import { follow } from './follow';
import type { StreamPart } from './parts';
import { startRun } from '../turn-control/turns';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const agent = defineDeepAgent({
  name: 'follower',
  model: createScriptedModel({ delayMs: 1 }),
  instructions: 'x',
  tools: {
    note: tool({
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }) => {
        handlerContext().state.note = text;
        return `noted ${text}`;
      },
    }),
  },
  initialState: { note: '' },
});

async function collect(parts: AsyncIterable<StreamPart>, until?: (entry: StreamPart, all: StreamPart[]) => boolean) {
  const all: StreamPart[] = [];
  for await (const entry of parts) {
    all.push(entry);
    if (until?.(entry, all)) break;
  }
  return all;
}

describe('streams and cursors', () => {
  it('a replay from the log is the live stream, part for part, cursor for cursor', async () => {
    const store = createMemoryStore();
    await startRun({ agent, store, sessionId: 's1', ownerId: 'o', source: 'agui', messages: [{ id: 'u0', role: 'user', content: 'hello there' }] }).then(
      (run) => run.done,
    );
    const run = await startRun({
      agent,
      store,
      sessionId: 's1',
      ownerId: 'o',
      source: 'agui',
      messages: [{ id: 'u1', role: 'user', content: 'call note {"text":"milk"}' }],
    });
    const live = await collect(run.stream());
    await run.done;
    expect(live.map((entry) => entry.part.type)).toEqual(
      expect.arrayContaining([
        'run-started',
        'messages-snapshot',
        'state-snapshot',
        'tool-call-start',
        'tool-result',
        'state-delta',
        'text-delta',
        'run-finished',
      ]),
    );
    // Cursors strictly increase.
    const positions = live.map((entry) => parseCursor(entry.cursor)!);
    positions.slice(1).forEach((position, i) => expect(position.seq * 1e6 + position.j).toBeGreaterThan(positions[i]!.seq * 1e6 + positions[i]!.j));

    const replay = await collect(follow({ store, sessionId: 's1', initialState: agent.initialState, after: null, runId: run.runId }));
    expect(replay).toEqual(live);

    // Re-joining from the middle gets exactly the rest.
    const middle = Math.floor(live.length / 2);
    const rest = await collect(
      follow({ store, sessionId: 's1', initialState: agent.initialState, after: parseCursor(live[middle]!.cursor), runId: run.runId }),
    );
    expect(rest).toEqual(live.slice(middle + 1));
  });

  it('a client joining mid-run from the log gets every part once, live deltas included', async () => {
    const store = createMemoryStore();
    const run = await startRun({
      agent,
      store,
      sessionId: 's2',
      ownerId: 'o',
      source: 'agui',
      messages: [{ id: 'u1', role: 'user', content: 'slowly reply with 30 tokens' }],
    });
    const head = await collect(run.stream(), (_, all) => all.filter((entry) => entry.part.type === 'text-delta').length === 5);
    const joined = follow({ store, sessionId: 's2', initialState: agent.initialState, after: parseCursor(head.at(-1)!.cursor), runId: run.runId });
    const tail = await collect(joined);
    await run.done;
    const all = await collect(run.stream());
    expect([...head, ...tail]).toEqual(all);
  });

  it('the session stream carries every run of the thread, from any source, live', async () => {
    const store = createMemoryStore();
    await startRun({ agent, store, sessionId: 's3', ownerId: 'o', source: 'agui', messages: [{ id: 'u0', role: 'user', content: 'first' }] }).then(
      (run) => run.done,
    );
    const controller = new AbortController();
    const stream = collect(
      follow({
        store,
        sessionId: 's3',
        initialState: agent.initialState,
        after: { seq: (await store.getSession('s3'))!.headSeq, j: Number.MAX_SAFE_INTEGER },
        signal: controller.signal,
      }),
      (entry, all) => all.filter((e) => e.part.type === 'run-finished').length === 2,
    );
    const second = await startRun({ agent, store, sessionId: 's3', ownerId: 'o', source: 'openai', messages: [{ id: 'u1', role: 'user', content: 'second' }] });
    await second.done;
    const third = await startRun({
      agent,
      store,
      sessionId: 's3',
      ownerId: 'o',
      source: 'anthropic',
      messages: [{ id: 'u2', role: 'user', content: 'third' }],
    });
    await third.done;
    const seen = await stream;
    controller.abort();
    expect(seen).toEqual([...(await collect(second.stream())), ...(await collect(third.stream()))]);
  });
});
