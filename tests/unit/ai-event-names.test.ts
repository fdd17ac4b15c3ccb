// The log read by experimental-a2's event names (docs/seed-names.md, "Log events"), on a real run.
import { beforeAll, describe, expect, it } from 'vitest';
import { findAgent } from '../../server/agents';
import { inputs, pendingInterrupts, session, startRun, userMessage } from '../../server/runtime';
import { reduceAll } from '../../server/runtime/session/reduce';
import { aiEventName, aiEvents } from '../../server/store/ai-event-names';
import { createMemoryStore } from '../../server/store/memory-store';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

describe('aiEvents(events, name)', () => {
  it('finds an approval asked for, and every tool result — the approved call, a lookup, a browser tool — as ai.tool.result', async () => {
    const helpdesk = findAgent('helpdesk')!;
    const store = createMemoryStore();
    const desk = session(helpdesk, 'e1', { ownerId: 'o1', store });
    await (await desk.append(userMessage('Look up order po_42', { id: 'ask-1' })))!.done;
    await (await desk.append(userMessage('Close ticket T-7', { id: 'ask-2' })))!.done;
    const [pending] = pendingInterrupts(reduceAll(await store.readEvents('o1/e1'), helpdesk.initialState));
    await (await desk.append(...inputs.approval({ approvalId: pending!.id, approved: true })))!.done;
    const clientTools = [{ name: 'pickColor', parameters: { type: 'object' as const } }];
    await (
      await startRun({ agent: helpdesk, store, sessionId: 'o1/e1', ownerId: 'o1', source: 'agui', clientTools, messages: [userMessage('call pickColor {}')] })
    ).done;
    const [call] = reduceAll(await store.readEvents('o1/e1'), helpdesk.initialState).openToolCalls;
    await (await desk.append(...inputs.toolResult({ toolCallId: call!.id, output: 'red' })))!.done;

    const events = await store.readEvents('o1/e1');
    const requested = aiEvents(events, 'ai.approval.requested').map(({ event }) => event.type === 'interrupts_opened' && event.interrupts[0]!.toolName);
    expect(requested).toEqual(['closeTicket']);
    const results = aiEvents(events, 'ai.tool.result').map(({ event }) =>
      event.type === 'tool_result' ? event.message.toolName : event.type === 'message_added' ? event.message.role : event.type,
    );
    expect(results).toEqual(['lookupOrder', 'closeTicket', 'tool']);
    // Events the seed has no name for have none here: a user's message, a run's end.
    const unnamed = events.filter(({ event }) => event.type === 'run_finished' || (event.type === 'message_added' && event.message.role === 'user'));
    expect(unnamed.length).toBeGreaterThan(0);
    expect(unnamed.map(({ event }) => aiEventName(event))).toEqual(unnamed.map(() => undefined));
  });
});
