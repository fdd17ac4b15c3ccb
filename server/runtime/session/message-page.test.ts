// A thread's messages a page at a time (docs/internals/architecture.md, "Streams and cursors"): the newest
// page by default, the one before it by the cursor each page gives, until the first message.
import { describe, expect, it } from 'vitest';
import { messagePage, PAGE_MESSAGES } from './message-page';

const thread = (count: number, chars = 10) => Array.from({ length: count }, (_, i) => ({ id: `m${i}`, text: 'x'.repeat(chars) }));

describe('messagePage', () => {
  it('answers the newest page by default, then older pages by olderCursor, each message once, until there are none', async () => {
    const messages = thread(250);
    const pages: string[][] = [];
    let before: string | undefined;
    for (;;) {
      const page = messagePage(messages, { before });
      pages.push(page.messages.map((message) => message.id));
      if (!page.olderCursor) break;
      before = page.olderCursor;
    }
    expect(pages.map((page) => page.length)).toEqual([PAGE_MESSAGES, PAGE_MESSAGES, 50]);
    expect(pages[0]!.at(-1)).toBe('m249');
    expect(pages.reverse().flat()).toEqual(messages.map((message) => message.id));
  });

  it('a short thread is one page with no cursor; a limit sets the page size', () => {
    expect(messagePage(thread(3))).toEqual({ messages: thread(3), olderCursor: null });
    expect(messagePage(thread(10), { limit: 4 })).toEqual({ messages: thread(10).slice(6), olderCursor: 'm6' });
    expect(messagePage(thread(10), { before: 'm6', limit: 4 })).toEqual({ messages: thread(10).slice(2, 6), olderCursor: 'm2' });
  });

  it('stops short of its count once it holds about a megabyte, but holds one message however long', () => {
    const page = messagePage(thread(20, 300_000));
    expect(page.messages.map((message) => message.id)).toEqual(['m17', 'm18', 'm19']);
    expect(page.olderCursor).toBe('m17');
    expect(messagePage(thread(2, 3_000_000)).messages).toHaveLength(1);
  });

  it('a cursor that names no message of the thread is 400 invalid_cursor', () => {
    expect(() => messagePage(thread(3), { before: 'nope' })).toThrow(expect.objectContaining({ code: 'invalid_cursor', status: 400 }));
  });
});
