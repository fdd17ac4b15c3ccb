// TanStack AI's own client (`@tanstack/ai-client`) as a first-class client of the AG-UI
// endpoint (docs/internals/wires.md, "TanStack AI's client"): ChatClient sends over SSE, hydrates a
// thread from the server, re-joins a run that is still streaming, and resolves our
// interrupts through its own interrupt manager: natively (`resolveInterrupt(true)`) for a
// yes-or-no approval of a tool it declares, with our payload for every other interrupt.
import { randomUUID } from 'node:crypto';
import { toolDefinition, type AnyClientTool } from '@tanstack/ai';
import {
  ChatClient,
  fetchServerSentEvents,
  type ChatInterrupt,
  type GenericAGUIInterrupt,
  type ToolApprovalInterrupt,
  type UIMessage,
} from '@tanstack/ai-client';
import { describe, expect, it } from 'vitest';
import { openRun, postRun, readThread, type StreamedEvent, runInput } from '../support/agui';
import { backends } from '../support/backends';
import { eventually } from '../support/inspect';

const tokens = (n: number) => Array.from({ length: n }, (_, i) => `token${i + 1}`).join(' ');
const deltas = (all: StreamedEvent[]) => all.filter((entry) => entry.event.type === 'TEXT_MESSAGE_CONTENT').length;

type Part = UIMessage['parts'][number];
const textOf = (message: { parts: Part[] } | undefined) =>
  (message?.parts ?? [])
    .filter((part): part is Extract<Part, { type: 'text' }> => part.type === 'text')
    .map((part) => part.content)
    .join('');
/** The messages as a person sees them: who said what, under which id. */
const transcript = (messages: { id: string; role: string; parts: Part[] }[]) =>
  messages.map((message) => ({ id: message.id, role: message.role, text: textOf(message) }));
/**
 * What a turn shows, in order, whatever the bubbles: the live client keeps a turn in one
 * assistant message, the hydration JSON has one per model step.
 */
const shown = (messages: { role: string; parts: Part[] }[]) =>
  messages.flatMap((message) =>
    message.parts.flatMap((part) => {
      if (part.type === 'text') return [`${message.role}: ${part.content}`];
      if (part.type === 'tool-call') return [`call ${part.name} ${part.arguments}`];
      if (part.type === 'tool-result') return [`result ${part.content}`];
      return [];
    }),
  );

/**
 * The helpdesk agent's closeTicket as a TanStack app declares it to approve it natively:
 * `needsApproval: true`, and no inputSchema or approvalSchema, since closing takes a yes or a
 * no and nothing else (docs/internals/wires.md, "TanStack AI's client"). The tool still runs on the server.
 */
const closeTicket = toolDefinition({ name: 'closeTicket', description: 'Close a support ticket. Needs a human approval.', needsApproval: true }).client();
type CloseTicketApproval = ToolApprovalInterrupt<typeof closeTicket>;

/**
 * A ChatClient on one thread, the way an app configures it: the thread id rides in the URL
 * too, so `joinRun` (GET ?runId=…) names its thread and works on any server process.
 */
function chatClient(
  baseUrl: string,
  agent: string,
  threadId: string,
  options: { persistence?: true; onChunk?: (chunk: { type: string }) => void; tools?: AnyClientTool[] } = {},
) {
  const errors: Error[] = [];
  const client = new ChatClient({
    connection: fetchServerSentEvents(`${baseUrl}/api/agents/${agent}?threadId=${encodeURIComponent(threadId)}`),
    threadId,
    ...(options.persistence ? { persistence: true as const } : {}),
    ...(options.tools ? { tools: options.tools } : {}),
    onError: (error) => errors.push(error),
    ...(options.onChunk ? { onChunk: options.onChunk } : {}),
  });
  return { client, errors };
}

/** The one interrupt the client holds, as the generic interrupt its manager can resolve. */
function bound(interrupts: readonly ChatInterrupt[]): GenericAGUIInterrupt {
  expect(interrupts).toHaveLength(1);
  const [interrupt] = interrupts;
  if (interrupt?.kind !== 'generic' || !('resolveInterrupt' in interrupt)) throw new Error(`Not a resolvable interrupt: ${JSON.stringify(interrupt)}`);
  return interrupt;
}

/** The interrupts the client holds, each a tool approval its manager answers with a boolean. */
function native(interrupts: readonly ChatInterrupt<readonly [typeof closeTicket]>[]): CloseTicketApproval[] {
  return interrupts.map((interrupt) => {
    if (interrupt.kind !== 'tool-approval') throw new Error(`Not a native tool approval: ${JSON.stringify(interrupt)}`);
    return interrupt;
  });
}

/** Waits until the client is done: nothing streaming, nothing being submitted. */
const idle = (client: ChatClient, what: string, check: () => boolean = () => true) =>
  eventually(async () => !client.getIsLoading() && client.getStatus() !== 'streaming' && !client.getInterruptState().resuming && check(), 20_000, what);

for (const server of backends()) {
  describe(`TanStack AI ChatClient on ${server.kind}`, () => {
    it('chats: a server tool runs and the reply quotes its result, with no error', async () => {
      const threadId = randomUUID();
      const { client, errors } = chatClient(server.url, 'helpdesk', threadId);
      await client.sendMessage('look up order po_42');
      await idle(client, 'the turn to end');

      expect(errors).toEqual([]);
      expect(client.getError()).toBeUndefined();
      const reply = client.getMessages().at(-1)!;
      expect(reply.role).toBe('assistant');
      expect(reply.parts).toContainEqual(
        expect.objectContaining({ type: 'tool-call', name: 'lookupOrder', state: 'complete', output: expect.objectContaining({ customer: 'Ada Lovelace' }) }),
      );
      expect(textOf(reply)).toBe('Order po_42 — Analytical Engine manual for Ada Lovelace, delivered, $19.99.');
      // The server holds the same turn: same user message id, same reply id, same content.
      const { body: thread } = await readThread(server.url, 'helpdesk', threadId);
      expect(thread.status).toBe('idle');
      expect(thread.messages[0].id).toBe(client.getMessages()[0]!.id);
      expect(thread.messages.at(-1).id).toBe(reply.id);
      expect(shown(client.getMessages())).toEqual(shown(thread.messages));
      client.dispose();
    });

    // ChatClient re-sends the whole conversation, a server tool's result under an id of its own
    // (`tool-<toolCallId>`): the server takes it for the echo it is.
    it('chats on after a tool call: the next message re-sends the history and the server adds only the new turn', async () => {
      const threadId = randomUUID();
      const { client, errors } = chatClient(server.url, 'helpdesk', threadId);
      await client.sendMessage('look up order po_42');
      await idle(client, 'the first turn to end');
      await client.sendMessage('reply with 2 tokens');
      await idle(client, 'the second turn to end');

      expect(errors).toEqual([]);
      expect(textOf(client.getMessages().at(-1))).toBe(tokens(2));
      const { body: thread } = await readThread(server.url, 'helpdesk', threadId);
      expect(thread.messages.filter((message: { role: string }) => message.role === 'user').map(textOf)).toEqual([
        'look up order po_42',
        'reply with 2 tokens',
      ]);
      expect(shown(client.getMessages())).toEqual(shown(thread.messages));
      client.dispose();
    });

    it('hydrates: a fresh client with server persistence shows the thread as the server has it', async () => {
      const threadId = randomUUID();
      await postRun(server.url, 'helpdesk', runInput(threadId, 'look up order po_42'));
      await postRun(server.url, 'helpdesk', runInput(threadId, 'reply with 3 tokens'));
      const { body: thread } = await readThread(server.url, 'helpdesk', threadId);
      expect(thread.messages.length).toBeGreaterThanOrEqual(4);

      const { client, errors } = chatClient(server.url, 'helpdesk', threadId, { persistence: true });
      client.attach();
      await eventually(async () => client.getMessages().length === thread.messages.length, 10_000, 'the hydrated messages');

      expect(transcript(client.getMessages())).toEqual(transcript(thread.messages));
      expect(shown(client.getMessages()).join('\n')).toContain('assistant: Order po_42 — Analytical Engine manual for Ada Lovelace, delivered, $19.99.');
      expect(textOf(client.getMessages().at(-1))).toBe(tokens(3));
      expect(client.getIsLoading()).toBe(false);
      expect(errors).toEqual([]);
      client.dispose();
    });

    it('re-joins a run that is still streaming: the whole reply, the first chunk promptly', async () => {
      const threadId = randomUUID();
      const runId = randomUUID();
      // A tab that sent the message and closed after a few tokens.
      await openRun(server.url, 'helpdesk', runInput(threadId, 'slowly reply with 40 tokens', runId), (_, all) => deltas(all) === 3);

      let firstChunkAt: number | undefined;
      const { client, errors } = chatClient(server.url, 'helpdesk', threadId, {
        persistence: true,
        onChunk: () => void (firstChunkAt ??= Date.now()),
      });
      const attachedAt = Date.now();
      client.attach();
      // Hydration sees the active run and joins it.
      await eventually(async () => client.getCurrentRunId() === runId, 5_000, 'the client to join the run');
      await idle(client, 'the joined run to end', () => textOf(client.getMessages().at(-1)) === tokens(40));

      expect(firstChunkAt).toBeDefined();
      expect(firstChunkAt! - attachedAt).toBeLessThan(1_500);
      expect(errors).toEqual([]);
      const { body: thread } = await readThread(server.url, 'helpdesk', threadId);
      expect(thread.status).toBe('idle');
      expect(transcript(client.getMessages())).toEqual(transcript(thread.messages));
      client.dispose();
    });

    it('approves natively: resolveInterrupt(true) closes the ticket on the server and the run finishes', async () => {
      const threadId = randomUUID();
      const { client, errors } = chatClient(server.url, 'helpdesk', threadId, { tools: [closeTicket] });
      await client.sendMessage('close ticket T-7');
      await idle(client, 'the run to pause', () => client.getInterrupts().length === 1);
      const [interrupt] = native(client.getInterrupts());
      const call = client
        .getMessages()
        .at(-1)!
        .parts.find((part) => part.type === 'tool-call')!;
      expect(interrupt).toMatchObject({
        kind: 'tool-approval',
        reason: 'tool_call',
        canResolve: true,
        status: 'pending',
        toolName: 'closeTicket',
        toolCallId: call.id,
        originalArgs: { ticketId: 'T-7' },
      });
      expect(call).toMatchObject({ name: 'closeTicket', input: { ticketId: 'T-7' } });
      // A normal message is refused while the decision is open (TanStack's rule).
      await expect(client.sendMessage('reply with 2 tokens')).rejects.toThrow(/pending interrupts/);

      interrupt!.resolveInterrupt(true);
      await idle(
        client,
        'the continuation to end',
        () => client.getInterrupts().length === 0 && textOf(client.getMessages().at(-1)).includes('Closed ticket T-7.'),
      );

      expect(errors).toEqual([]);
      expect(client.getInterruptState().interruptErrors).toEqual([]);
      // The server ran its own tool: the client declared it only to answer its approval.
      expect(client.getMessages().flatMap((message) => message.parts)).toContainEqual(
        expect.objectContaining({
          type: 'tool-call',
          id: call.id,
          name: 'closeTicket',
          state: 'complete',
          output: { closed: true, ticketId: 'T-7', summary: 'Closed ticket T-7.' },
        }),
      );
      const { body: thread } = await readThread(server.url, 'helpdesk', threadId);
      expect(thread).toMatchObject({ status: 'idle', interrupts: null, activeRun: null });
      expect(shown(thread.messages)).toContain(`result ${JSON.stringify({ closed: true, ticketId: 'T-7', summary: 'Closed ticket T-7.' })}`);
      client.dispose();
    });

    it('rejects natively after hydrating: resolveInterrupt(false) reaches the model as a denial and nothing runs', async () => {
      const threadId = randomUUID();
      const paused = await postRun(server.url, 'helpdesk', runInput(threadId, 'close ticket T-7'));
      expect(paused.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });

      const { client, errors } = chatClient(server.url, 'helpdesk', threadId, { persistence: true, tools: [closeTicket] });
      client.attach();
      await eventually(async () => client.getInterrupts().length > 0, 10_000, 'the hydrated interrupt');
      const [interrupt] = native(client.getInterrupts());
      expect(interrupt).toMatchObject({
        kind: 'tool-approval',
        canResolve: true,
        interruptedRunId: paused.events.at(-1)!.runId as string,
        originalArgs: { ticketId: 'T-7' },
      });
      interrupt!.resolveInterrupt(false);
      await idle(
        client,
        'the continuation to end',
        () => client.getInterrupts().length === 0 && textOf(client.getMessages().at(-1)).startsWith("I didn't close ticket"),
      );

      expect(errors).toEqual([]);
      expect(client.getInterruptState().interruptErrors).toEqual([]);
      expect(textOf(client.getMessages().at(-1))).toBe("I didn't close ticket: you declined it.");
      expect(shown(client.getMessages()).join('\n')).not.toContain('"closed":true');
      const { body: thread } = await readThread(server.url, 'helpdesk', threadId);
      expect(thread).toMatchObject({ status: 'idle', interrupts: null });
      expect(transcript(client.getMessages()).at(-1)).toEqual(transcript(thread.messages).at(-1));
      client.dispose();
    });

    it('answers a batch natively: resolveInterrupts(true) approves both closures in one continuation', async () => {
      const threadId = randomUUID();
      const { client, errors } = chatClient(server.url, 'helpdesk', threadId, { tools: [closeTicket] });
      await client.sendMessage('close ticket T-7 and close ticket T-8');
      await idle(client, 'the run to pause', () => client.getInterrupts().length === 2);
      expect(native(client.getInterrupts()).map((interrupt) => interrupt.originalArgs)).toEqual([{ ticketId: 'T-7' }, { ticketId: 'T-8' }]);

      client.resolveInterrupts(true);
      await idle(
        client,
        'the continuation to end',
        () => client.getInterrupts().length === 0 && textOf(client.getMessages().at(-1)).includes('Closed ticket T-8.'),
      );

      expect(errors).toEqual([]);
      expect(client.getInterruptState().interruptErrors).toEqual([]);
      const { body: thread } = await readThread(server.url, 'helpdesk', threadId);
      expect(thread).toMatchObject({ status: 'idle', interrupts: null });
      const results = shown(thread.messages).filter((line) => line.startsWith('result '));
      expect(results).toEqual([
        `result ${JSON.stringify({ closed: true, ticketId: 'T-7', summary: 'Closed ticket T-7.' })}`,
        `result ${JSON.stringify({ closed: true, ticketId: 'T-8', summary: 'Closed ticket T-8.' })}`,
      ]);
      client.dispose();
    });

    // refundPayment allows edits and takes approval data: its interrupt keeps our responseSchema,
    // bound as the generic kind, and is answered with the payload that schema describes.
    it('answers an approval with edits and approval data as the generic kind: the edited refund runs', async () => {
      const threadId = randomUUID();
      const { client, errors } = chatClient(server.url, 'helpdesk', threadId, { tools: [closeTicket] });
      await client.sendMessage('refund order po_42 for 19.99');
      await idle(client, 'the run to pause', () => client.getInterrupts().length === 1);
      const interrupt = bound(client.getInterrupts());
      expect(interrupt).toMatchObject({
        kind: 'generic',
        reason: 'tool_call',
        canResolve: true,
        metadata: { toolName: 'refundPayment', allowedDecisions: ['approve', 'reject', 'edit'] },
      });
      expect(interrupt.responseSchema).toMatchObject({
        properties: { approved: { type: 'boolean' }, editedArgs: { type: 'object' }, payload: { type: 'object' } },
      });

      interrupt.resolveInterrupt({ approved: true, editedArgs: { orderId: 'po_42', amount: 5 }, payload: { note: 'partial' } });
      await idle(client, 'the continuation to end', () => client.getInterrupts().length === 0 && textOf(client.getMessages().at(-1)).startsWith('Refunded'));

      expect(errors).toEqual([]);
      expect(client.getInterruptState().interruptErrors).toEqual([]);
      // The edited amount ran, with the approval's note.
      expect(textOf(client.getMessages().at(-1))).toMatch(/^Refunded \$5\.00 on order po_42 \(refund re_[\w-]+\)\. Note: partial$/);
      const { body: thread } = await readThread(server.url, 'helpdesk', threadId);
      expect(thread).toMatchObject({ status: 'idle', interrupts: null });
      client.dispose();
    });

    // Without the declaration the client cannot match the approval to a tool of its own: it
    // falls back to the generic kind, and our object payload (with a reason) still answers it.
    it('a client that does not declare the tool hydrates the approval as the generic kind and rejects it with a reason', async () => {
      const threadId = randomUUID();
      const paused = await postRun(server.url, 'helpdesk', runInput(threadId, 'close ticket T-7'));
      expect(paused.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });

      const { client, errors } = chatClient(server.url, 'helpdesk', threadId, { persistence: true });
      client.attach();
      const interrupt = bound(await eventually(async () => client.getInterrupts().length > 0 && client.getInterrupts(), 10_000, 'the hydrated interrupt'));
      expect(interrupt).toMatchObject({ kind: 'generic', reason: 'tool_call', canResolve: true, interruptedRunId: paused.events.at(-1)!.runId as string });
      interrupt.resolveInterrupt({ approved: false, reason: 'Customer still waiting on a reply' });
      await idle(
        client,
        'the continuation to end',
        () => client.getInterrupts().length === 0 && textOf(client.getMessages().at(-1)).startsWith("I didn't close ticket"),
      );

      expect(errors).toEqual([]);
      // The model got the rejection with its reason; the tool did not run.
      expect(textOf(client.getMessages().at(-1))).toBe("I didn't close ticket: you declined it (“Customer still waiting on a reply”).");
      expect(shown(client.getMessages()).join('\n')).not.toContain('"closed":true');
      const { body: thread } = await readThread(server.url, 'helpdesk', threadId);
      expect(thread).toMatchObject({ status: 'idle', interrupts: null });
      expect(transcript(client.getMessages()).at(-1)).toEqual(transcript(thread.messages).at(-1));
      client.dispose();
    });
  });
}
