import { describe, expect, it } from 'vitest';
import { jsonResponse, sendAsIsWhenSmall } from './small-answers';

describe('small answers', () => {
  it('a small JSON answer is marked to be sent as it is, and keeps its own cache rule', async () => {
    const answer = jsonResponse({ ok: true }, { headers: { 'Cache-Control': 'no-store' } });
    expect(answer.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(await answer.json()).toEqual({ ok: true });
  });

  it('an answer of 1 KB or more is left to be compressed', async () => {
    const big = { text: 'x'.repeat(2000) };
    const answer = jsonResponse(big, { status: 201 });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('cache-control')).toBeNull();
    expect(await answer.json()).toEqual(big);
  });

  it('counts bytes, not characters: 400 three-byte characters are over the threshold', () => {
    expect(sendAsIsWhenSmall(new Headers(), '€'.repeat(300)).get('cache-control')).toBe('no-transform');
    expect(sendAsIsWhenSmall(new Headers(), '€'.repeat(400)).get('cache-control')).toBeNull();
  });

  it('is said once however often it is asked', () => {
    const headers = sendAsIsWhenSmall(sendAsIsWhenSmall(new Headers({ 'Cache-Control': 'public, max-age=300' }), '{}'), '{}');
    expect(headers.get('cache-control')).toBe('public, max-age=300, no-transform');
  });
});
