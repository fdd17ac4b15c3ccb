// The Responses stream (docs/internals/wires.md, "The Responses wire"): reasoning and text as their own
// items, and the same events under the same sequence numbers whether the run is read live or
// replayed from the log — what lets a client resume from any number on any server.
import { beforeAll, describe, expect, it } from 'vitest';
import { defineDeepAgent } from '../../authoring';
import { runSoFar } from '../../runtime';
import { startRun } from '../../runtime/turn-control/turns';
import { createMemoryStore } from '../../store/memory-store';
import { responseEvents, ResponseTranslator, type ResponseEvent, type ResponseMeta } from './events';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const agent = defineDeepAgent({ name: 'thinker', model: 'openai/gpt-4o-mini', instructions: 'Think first.' });
const meta: ResponseMeta = { id: 'resp_x.r1', model: 'thinker', createdAt: 0, background: false, store: true, previousResponseId: null };
const THOUGHT = "The user wants my thoughts on launch timing. I'll weigh what matters most and answer in one line.";
const ANSWER = 'Here is what I think about launch timing: it is worth a closer look.';

describe('the Responses stream', () => {
  it('is the same live and replayed from the log: reasoning, then the message, numbered from 0', async () => {
    const store = createMemoryStore();
    const run = await startRun({
      agent,
      store,
      sessionId: 's1',
      ownerId: 'o1',
      source: 'openai',
      messages: [{ id: 'u1', role: 'user', content: 'think about launch timing' }],
    });
    const live: ResponseEvent[] = [];
    for await (const event of responseEvents(run.stream(null), new ResponseTranslator(meta))) live.push(event);
    await run.done;

    expect(live.map((event) => event.sequence_number)).toEqual(live.map((_, i) => i));
    const deltas = (type: string) => live.flatMap((event) => (event.type === type ? [event.delta] : [])).join('');
    expect(deltas('response.reasoning_text.delta')).toBe(THOUGHT);
    expect(deltas('response.output_text.delta')).toBe(ANSWER);
    const completed = live.at(-1)!;
    expect(completed.type).toBe('response.completed');
    expect(completed.response).toMatchObject({
      status: 'completed',
      output: [
        { type: 'reasoning', content: [{ type: 'reasoning_text', text: THOUGHT }] },
        { type: 'message', status: 'completed', content: [{ type: 'output_text', text: ANSWER }] },
      ],
      usage: { output_tokens_details: { reasoning_tokens: THOUGHT.split(' ').length } },
    });

    const logged = await runSoFar(store, 's1', run.runId, {});
    const replayed = new ResponseTranslator(meta);
    expect(logged!.parts.flatMap((entry) => replayed.push(entry.part))).toEqual(live);
  });
});
