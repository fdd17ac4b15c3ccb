// GET /api/hitl's query (docs/hitl.md, "Paging the inbox"): a cursor goes back as it came, and
// anything else given as a cursor, a filter or a limit is refused before anything is read.
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors';
import { decodeInboxCursor, encodeInboxCursor } from './inbox-cursor';
import { parseInboxQuery } from './inbox-query';

const url = (query: string) => `http://localhost/api/hitl${query}`;
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof HttpError ? error.code : `not an HttpError: ${String(error)}`;
  }
  return 'accepted';
};

describe("the inbox's cursor", () => {
  it('names the position it was made from', () => {
    const at = { part: 'kept' as const, after: { createdAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)), id: 'int_0b6e7a52' } };
    expect(decodeInboxCursor(encodeInboxCursor(at))).toEqual(at);
    expect(decodeInboxCursor(encodeInboxCursor({ part: 'own', after: null }))).toEqual({ part: 'own', after: null });
  });

  it('refuses anything this server could not have sent: 400 invalid_cursor', () => {
    const made = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const cursor of ['', 'not a cursor', '%%%', made({ part: 'own' }), made(['mine']), made(['own', -1, 'int_1']), made(['own', 1.5, 'int_1'])]) {
      expect(
        refusal(() => decodeInboxCursor(cursor)),
        cursor,
      ).toBe('invalid_cursor');
    }
    expect(
      refusal(() => decodeInboxCursor(made(['own', 1, 'int_\u0000']))),
      'a NUL in the id',
    ).toBe('invalid_cursor');
    expect(
      refusal(() => decodeInboxCursor(made(['own', 1, 'x'.repeat(257)]))),
      'a long id',
    ).toBe('invalid_cursor');
  });
});

describe("the inbox's query", () => {
  it('defaults to every decision, 50 a page, from the start; a limit above 200 is 200', () => {
    expect(parseInboxQuery(url(''), true)).toEqual({ filter: 'all', limit: 50, from: null });
    expect(parseInboxQuery(url('?filter=mine&limit=7'), true)).toMatchObject({ filter: 'mine', limit: 7 });
    expect(parseInboxQuery(url('?limit=5000'), true).limit).toBe(200);
  });

  it('refuses a filter or a limit it does not know (invalid_request), and a cursor of another listing (invalid_cursor)', () => {
    expect(refusal(() => parseInboxQuery(url('?filter=everyone'), true))).toBe('invalid_request');
    for (const limit of ['0', '-3', '2.5', 'ten', ''])
      expect(
        refusal(() => parseInboxQuery(url(`?limit=${limit}`), true)),
        limit,
      ).toBe('invalid_request');
    const kept = encodeInboxCursor({ part: 'kept', after: null });
    expect(refusal(() => parseInboxQuery(url(`?filter=key-holders&cursor=${kept}`), true))).toBe('accepted');
    expect(refusal(() => parseInboxQuery(url(`?filter=mine&cursor=${kept}`), true))).toBe('invalid_cursor');
    // The kept part is a key holder's: without the key, its cursor positions nothing.
    expect(refusal(() => parseInboxQuery(url(`?cursor=${kept}`), false))).toBe('invalid_cursor');
  });
});
