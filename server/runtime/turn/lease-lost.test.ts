// A run that lost its lease stops at once (docs/internals/architecture.md, "Two writers never interleave"):
// when another run took the session over — this process stalled past its lease and recovery
// elsewhere carried the session on — the old run's tools see their signal abort and nothing it
// produces afterwards is written.
import { tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import { createMemoryStore } from '../../store/memory-store';
import { handlerContext } from '../tools/handler-context';
import type { RunPart } from '../stream/parts';
import { startRun } from '../turn-control/turns';

const saved = { lease: process.env.STACKBONE_LEASE_MS, model: process.env.STACKBONE_MODEL };
beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
  // The heartbeat renews every max(1 s, lease / 3).
  process.env.STACKBONE_LEASE_MS = '1500';
});
afterAll(() => {
  process.env.STACKBONE_LEASE_MS = saved.lease;
  process.env.STACKBONE_MODEL = saved.model;
});

/** Side effects of the tool, as an outside system would log them: one per 50 ms while it works. */
const ticks: number[] = [];
let abortedAt: number | undefined;

const agent = defineDeepAgent({
  name: 'worker',
  model: 'openai/gpt-4o-mini',
  instructions: 'x',
  tools: {
    chargeInInstalments: tool({
      inputSchema: z.object({}),
      execute: async () => {
        const { signal } = handlerContext();
        const until = Date.now() + 6_000;
        while (Date.now() < until && !signal.aborted) {
          ticks.push(Date.now());
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        abortedAt = signal.aborted ? Date.now() : undefined;
        return { instalments: ticks.length };
      },
    }),
  },
});

describe('a run that lost its lease', () => {
  it("aborts its tools' signals within a heartbeat and writes nothing more; the run that took over owns the log", async () => {
    const store = createMemoryStore();
    const run = await startRun({
      agent,
      store,
      sessionId: 's1',
      ownerId: 'o1',
      source: 'agui',
      runId: 'run-1',
      messages: [{ id: 'u1', role: 'user', content: 'call chargeInInstalments' }],
    });
    const parts: RunPart[] = [];
    const reading = (async () => {
      for await (const part of run.parts) parts.push(part);
    })();
    // The tool is working; then another run takes the session over (as recovery on another server would).
    while (ticks.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    const head = (await store.getSession('s1'))!.headSeq;
    const takenAt = Date.now();
    await store.append('s1', head, [{ type: 'run_started', runId: 'run-2', source: 'server', inputs: 0 }], {
      status: 'running',
      leaseUntil: new Date(Date.now() + 60_000),
    });

    await run.done;
    await reading;
    expect(abortedAt).toBeDefined();
    // Within a heartbeat (1 s) and the tool's own 50 ms step.
    expect(abortedAt! - takenAt).toBeLessThan(1_500);
    expect(ticks.filter((at) => at > takenAt + 1_500)).toEqual([]);
    // Nothing of run-1 after the takeover: the log ends with run-2's start.
    const events = (await store.readEvents('s1')).map((stored) => stored.event);
    expect(events.at(-1)).toEqual({ type: 'run_started', runId: 'run-2', source: 'server', inputs: 0 });
    expect((await store.getSession('s1'))!.headSeq).toBe(head + 1);
    // Its reader is told why the run ended.
    expect(parts.at(-1)).toMatchObject({ type: 'run-error', code: 'lease_lost' });
  });
});
