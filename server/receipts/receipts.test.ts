// Signed receipts without a server (docs/approvals.md, "Signed receipts"): the claims a decision
// gets, the key each setting gives (derived, explicit, rotated), and what verification refuses.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Decision, InterruptRecord } from '../store/pauses';
import { argsDigest, newReceiptKey, receiptClaims, receiptKeys, signReceipt, verifyReceipt } from '.';

const record = {
  id: 'int_1',
  reason: 'tool_call',
  toolCallId: 'call_1',
  toolName: 'refundPayment',
  input: { orderId: 'po_42', amount: 40 },
  runId: 'run_1',
  expiresAt: '2026-12-06T00:00:00.000Z',
} as InterruptRecord;
const subject = { issuer: 'https://desk.example.com', sessionKey: 'thread-1', record, decidedAt: '2026-12-05T12:00:00.000Z' };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('receipt claims', () => {
  it('digests the arguments as they will run: the edit, with the original beside it, in any key order', () => {
    const edit: Decision = { status: 'approved', editedArgs: { amount: 12.5, orderId: 'po_42' }, by: { source: 'hitl', ownerId: 'key:abc', keyName: 'alice' } };
    const claims = receiptClaims(subject, { kind: 'decision', decision: edit });
    expect(claims).toMatchObject({
      kind: 'decision',
      decision: 'approved',
      argsDigest: argsDigest({ orderId: 'po_42', amount: 12.5 }),
      originalArgsDigest: argsDigest({ amount: 40, orderId: 'po_42' }),
      decidedBy: 'key:alice',
      channel: 'http',
      sessionId: 'thread-1',
      expiresAt: record.expiresAt,
    });
    expect(argsDigest({ b: [1, { y: 2, x: 1 }], a: 'é' })).toBe(argsDigest({ a: 'é', b: [1, { x: 1, y: 2 }] }));
    expect(argsDigest({ amount: 12.5 })).not.toBe(argsDigest({ amount: 12.51 }));
  });

  it('names the channel a decision came through: chat, CLI, an emailed link, Slack, an expiry', () => {
    const channel = (by: Decision['by']) => receiptClaims(subject, { kind: 'decision', decision: { status: 'denied', by } }).channel;
    expect(channel({ source: 'agui', ownerId: 'o1' })).toBe('chat');
    expect(channel({ source: 'hitl', ownerId: 'o1', client: 'cli' })).toBe('cli');
    expect(channel({ source: 'link', recipient: 'email:desk@example.com' })).toBe('email');
    expect(channel({ source: 'link', recipient: 'slack' })).toBe('slack');
    const expired = receiptClaims(subject, { kind: 'decision', decision: { status: 'approved', expired: true, by: { source: 'expiry' } } });
    expect(expired).toMatchObject({ channel: 'expiry', decidedBy: 'expiry', expired: true, argsDigest: argsDigest(record.input) });
  });
});

describe('signing and verifying', () => {
  const approve: Decision = { status: 'approved', by: { source: 'agui', ownerId: 'o1' } };

  it('verifies with the published keys, and refuses a changed receipt, other arguments and a stranger key set', async () => {
    vi.stubEnv('STACKBONE_SECRET', 's'.repeat(64));
    const receipt = await signReceipt(receiptClaims(subject, { kind: 'decision', decision: approve }));
    const { published } = await receiptKeys();
    const checked = await verifyReceipt(receipt, { keys: published }, { args: { amount: 40, orderId: 'po_42' } });
    expect(checked).toMatchObject({ ok: true, claims: { interruptId: 'int_1', decision: 'approved' } });

    const [header, payload, signature] = receipt.split('.');
    const changed = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const forged = [
      header,
      Buffer.from(JSON.stringify({ ...changed, decision: 'approved', argsDigest: argsDigest({ amount: 4000 }) })).toString('base64url'),
      signature,
    ].join('.');
    expect(await verifyReceipt(forged, { keys: published })).toMatchObject({ ok: false, problem: expect.stringContaining('changed after it was signed') });
    expect(await verifyReceipt(receipt, { keys: published }, { args: { orderId: 'po_42', amount: 4000 } })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('not the ones the receipt approved'),
    });
    vi.stubEnv('STACKBONE_SECRET', 't'.repeat(64));
    const { published: others } = await receiptKeys();
    expect(await verifyReceipt(receipt, { keys: others })).toMatchObject({ ok: false, problem: expect.stringContaining('does not list') });
  });

  it('keeps a rotated key listed: STACKBONE_SECRET_PREVIOUS and STACKBONE_RECEIPT_KEY_PREVIOUS', async () => {
    vi.stubEnv('STACKBONE_SECRET', 'a'.repeat(64));
    const old = await signReceipt(receiptClaims(subject, { kind: 'decision', decision: approve }));
    vi.stubEnv('STACKBONE_SECRET', 'b'.repeat(64));
    vi.stubEnv('STACKBONE_SECRET_PREVIOUS', 'a'.repeat(64));
    const rotated = await receiptKeys();
    expect(rotated.published).toHaveLength(2);
    expect(await verifyReceipt(old, { keys: rotated.published })).toMatchObject({ ok: true });

    // An explicit key takes over from the derived one; the derived one, retired, listed by its JWK.
    const retiredJwk = (await receiptKeys()).published[0]!;
    vi.stubEnv('STACKBONE_RECEIPT_KEY', JSON.stringify(newReceiptKey()));
    vi.stubEnv('STACKBONE_RECEIPT_KEY_PREVIOUS', JSON.stringify(retiredJwk));
    const explicit = await receiptKeys();
    expect(explicit.ephemeral).toBe(false);
    expect(explicit.published.map((jwk) => jwk.kid)).toEqual([expect.any(String), retiredJwk.kid]);
    expect(explicit.published[0]!.kid).not.toBe(retiredJwk.kid);
  });

  it('refuses a receipt key setting that is no Ed25519 private JWK, saying how to make one', async () => {
    vi.stubEnv('STACKBONE_RECEIPT_KEY', '{"kty":"RSA"}');
    await expect(receiptKeys()).rejects.toThrow('is not an Ed25519 JWK');
    const { d: _private, ...publicOnly } = newReceiptKey();
    vi.stubEnv('STACKBONE_RECEIPT_KEY', JSON.stringify(publicOnly));
    await expect(receiptKeys()).rejects.toThrow('has no private part');
  });
});
