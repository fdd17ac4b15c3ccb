// What a model step is sent of a long conversation (docs/models.md, "Long threads"): where a
// compaction may cut, what the summary replaces, what a trim keeps, and when it is due.
import { describe, expect, it } from 'vitest';
import type { ContextCompaction } from '../../store/events';
import type { ChatMessage } from '../../store/messages';
import { summaryRequest } from '../../models/summary-request';
import { isSummaryRequest, summariseTranscript } from '../../models/scripted-summary';
import { toModelMessages } from '../turn/model-messages';
import { emptyView, reduceAll } from '../session/reduce';
import type { Conversation } from '../session';
import { planCompaction } from './compaction-plan';
import { cutPoint } from './cut-point';
import { sentMessages } from './sent-messages';
import { transcriptOf } from './transcript';

const user = (id: string, content: string): ChatMessage => ({ id, role: 'user', content });
const said = (id: string, content: string, ...calls: string[]): ChatMessage => ({
  id,
  role: 'assistant',
  content,
  ...(calls.length ? { toolCalls: calls.map((call) => ({ id: call, name: 'lookupOrder', input: { orderId: 'po_42' } })) } : {}),
});
const result = (id: string, toolCallId: string, content: string): ChatMessage => ({ id, role: 'tool', toolCallId, toolName: 'lookupOrder', content });

/** Every tool result sent right after the assistant message that made its call. */
function pairsValid(messages: ChatMessage[]): boolean {
  const model = toModelMessages(messages);
  const called = new Set<string>();
  for (const [index, message] of model.entries()) {
    if (message.role === 'assistant' && typeof message.content !== 'string')
      for (const part of message.content) if (part.type === 'tool-call') called.add(part.toolCallId);
    if (message.role === 'tool') {
      const before = model[index - 1];
      if (!before || (before.role !== 'assistant' && before.role !== 'tool')) return false;
      for (const part of message.content) if (part.type === 'tool-result' && !called.has(part.toolCallId)) return false;
    }
  }
  return true;
}

const summary = (throughMessageId: string, text = 'The user asked about po_42.'): ContextCompaction => ({
  throughMessageId,
  method: 'summary',
  summary: text,
  tokensBefore: 500,
  tokensAfter: 100,
});

describe('the cut point', () => {
  it('keeps the turn in progress: it cuts before the last user message', () => {
    const messages = [
      user('u1', 'where is po_42?'),
      said('a1', '', 'c1'),
      result('t1', 'c1', '{"status":"shipped"}'),
      said('a2', 'Shipped.'),
      user('u2', 'thanks'),
    ];
    expect(cutPoint(messages)).toBe(4);
  });

  it('never parts a call from its result, even when the result came after a later user message', () => {
    // The user wrote while the lookup waited on a decision: the log keeps arrival order.
    const messages = [
      user('u1', 'look it up'),
      said('a1', '', 'c1'),
      user('u2', 'any news?'),
      result('t1', 'c1', 'shipped'),
      said('a2', 'Shipped.'),
      user('u3', 'ok'),
    ];
    expect(cutPoint(messages)).toBe(5);
    expect(cutPoint(messages.slice(0, 5))).toBeUndefined(); // before u2 the call is still open, and u1 starts the thread
  });

  it('never cuts inside a call that is still pending', () => {
    const messages = [user('u1', 'a'), said('a1', 'A.'), user('u2', 'look it up'), said('a2', '', 'c2'), user('u3', 'still there?')];
    expect(cutPoint(messages)).toBe(2);
  });

  it('finds nothing new past what an earlier compaction covered', () => {
    const messages = [user('u1', 'a'), said('a1', 'A.'), user('u2', 'b')];
    expect(cutPoint(messages, 2)).toBeUndefined();
    expect(cutPoint(messages, 1)).toBe(2);
  });
});

describe('the messages sent after a compaction', () => {
  const messages: ChatMessage[] = [
    { id: 's1', role: 'system', content: 'Answer in French.' },
    user('u1', 'where is po_42?'),
    said('a1', '', 'c1'),
    result('t1', 'c1', 'x'.repeat(5_000)),
    said('a2', 'Shipped.'),
    user('u2', 'and po_43?'),
    said('a3', '', 'c3'),
    result('t3', 'c3', 'y'.repeat(5_000)),
  ];

  it('a summary takes the place of the older turns; the client’s system message and the current turn stay, pairs valid', () => {
    const sent = sentMessages(messages, [summary('a2')]);
    expect(sent.map((message) => message.role)).toEqual(['system', 'system', 'user', 'assistant', 'tool']);
    expect(sent[0]).toEqual(messages[0]);
    expect(sent[1]!.content).toContain('The user asked about po_42.');
    expect(sent.slice(2)).toEqual(messages.slice(5));
    expect(pairsValid(sent)).toBe(true);
  });

  it('a trim keeps every call and its result, cutting only the long older results to a note', () => {
    const sent = sentMessages(messages, [{ ...summary('a2'), method: 'trim', summary: 'trimmed' }]);
    expect(sent).toHaveLength(messages.length);
    expect(sent[3]).toMatchObject({ role: 'tool', toolCallId: 'c1' });
    expect(sent[3]!.content).toMatch(/^x{120}… \[trimmed to fit the context budget: 5000 characters in all\]$/);
    expect(sent[7]).toEqual(messages[7]); // the current turn's result, whole
    expect(pairsValid(sent)).toBe(true);
  });

  it('a trim after a summary keeps the summary', () => {
    const later = [...messages, said('a4', 'Both shipped.'), user('u3', 'bye')];
    const sent = sentMessages(later, [summary('a2'), { ...summary('a4'), method: 'trim', summary: 'trimmed' }]);
    expect(sent[1]!.content).toContain('The user asked about po_42.');
    expect(sent.find((message) => message.id === 't3')!.content).toContain('[trimmed');
    expect(sent.some((message) => message.id === 'u1')).toBe(false);
  });
});

describe('when a conversation is compacted', () => {
  const conversation = (messages: ChatMessage[], extra: Partial<Conversation> = {}): Conversation => ({ messages, openToolCalls: [], ...extra });
  const long = [user('u1', 'where is po_42?'), said('a1', 'It shipped on Monday, '.repeat(40)), user('u2', 'thanks')];

  it('never without a budget, nor under it', () => {
    expect(planCompaction(conversation(long), undefined)).toBeUndefined();
    expect(planCompaction(conversation(long), 10_000)).toBeUndefined();
  });

  it('over the budget by an estimate (characters / 4), with the older turns to summarise', () => {
    const plan = planCompaction(conversation(long), 100)!;
    expect(plan.tokensBefore).toBe(Math.ceil((16 + 22 * 40 + 6) / 4));
    expect(plan.throughMessageId).toBe('a1');
    expect(plan.older.map((message) => message.id)).toEqual(['u1', 'a1']);
  });

  it('over the budget by what the provider reported the last step was sent, plus what came after', () => {
    const short = [user('u1', 'hi'), said('a1', 'Hello.'), user('u2', 'bye')];
    expect(planCompaction(conversation(short, { measured: { inputTokens: 150, messageCount: 1 } }), 100)?.tokensBefore).toBe(150 + 3);
    expect(planCompaction(conversation(short, { measured: { inputTokens: 50, messageCount: 1 } }), 100)).toBeUndefined();
  });

  it('a second compaction summarises the first summary with what followed it', () => {
    const messages = [...long, said('a2', 'You are welcome. '.repeat(40)), user('u3', 'one more')];
    const plan = planCompaction(conversation(messages, { contextCompactions: [summary('a1')] }), 50)!;
    expect(plan.older.map((message) => message.role)).toEqual(['system', 'user', 'assistant']);
    expect(transcriptOf(plan.older)[0]).toBe('Summary of earlier turns: The user asked about po_42.');
  });

  it('folds from the log: the event sets what is sent, and the log keeps every message', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const view = reduceAll(
      [
        ...long.map((message, index) => ({ seq: index + 1, at, event: { type: 'message_added' as const, message } })),
        { seq: 4, at, event: { type: 'context_compacted' as const, compaction: { ...summary('a1'), usage: { inputTokens: 9, outputTokens: 3 } } } },
      ],
      {},
      emptyView(),
    );
    expect(view.messages).toEqual(long);
    expect(view.compactions).toEqual([
      { throughMessageId: 'a1', method: 'summary', summary: 'The user asked about po_42.', tokensBefore: 500, tokensAfter: 100, at },
    ]);
    expect(sentMessages(view.messages, view.contextCompactions).map((message) => message.id)).toEqual(['compaction:a1', 'u2']);
    expect(view.usage).toEqual([expect.objectContaining({ inputTokens: 9, outputTokens: 3 })]);
  });
});

describe('the scripted model’s summary', () => {
  it('names the user’s requests and the tools’ outcomes it was given, after an earlier summary', () => {
    const transcript = transcriptOf([
      { id: 'compaction:u0', role: 'system', content: 'Earlier messages were summarised. The summary:\nThe user said hello.' },
      user('u1', 'where is po_42?'),
      said('a1', '', 'c1'),
      result('t1', 'c1', JSON.stringify({ status: 'shipped', summary: 'Order po_42 shipped on Monday.' })),
      user('u2', 'refund it'),
    ]);
    const request = summaryRequest(transcript);
    expect(isSummaryRequest(request)).toBe(true);
    expect(summariseTranscript(request)).toBe(
      'Before that: The user said hello. The user asked: "where is po_42?"; "refund it". Tool results: lookupOrder → Order po_42 shipped on Monday.',
    );
  });
});
