// Signed approval receipts against real servers (docs/approvals.md, "Signed receipts"): a refund
// approved in the chat (an AG-UI resume), approved with edits over /api/hitl, rejected through a
// mailed link, and approved over the OpenAI-compatible Responses wire. Each decision's receipt is
// in the session's receipts, the decision export and the log; it verifies against the server's
// /.well-known/jwks.json, its digest is the digest of the arguments the refund ran with, and the
// CLI verifies it offline from a saved key set — and refuses it changed, or for other arguments.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RunFinishedEvent } from '@ag-ui/core';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keyOwner } from '../../server/identity/api-keys';
import { argsDigest, type ReceiptClaims } from '../../server/receipts';
import { argumentsHash, linkExpiry, signLink } from '../../server/runtime';
import type { SessionEvent } from '../../server/store/events';
import { refundsIn } from '../fixtures/agents/ledger';
import { postRun, userMessage } from '../support/agui';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../support/database';
import { eventually, readSessionEvents } from '../support/inspect';
import { startServer, testPort, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const KEY = 'receipts-test-key-0123456789';
const SECRET = 'receipts-test-secret-'.padEnd(64, 'r');
const PORTS = { sqlite: 3311, postgres: 3312 } as const;
const auth = { authorization: `Bearer ${KEY}` };
const owner = keyOwner(KEY);
const cli = path.resolve(__dirname, '../../bin/stackbone.mjs');

type Kind = keyof typeof PORTS;
const servers = new Map<Kind, TestServer>();
const ledgerFiles = new Map<Kind, string>();
let scratch = '';

beforeAll(async () => {
  // The test process mints the mailed link as the servers do.
  vi.stubEnv('STACKBONE_SECRET', SECRET);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'stackbone-receipts-'));
  const start = async (kind: Kind, databaseUrl: string) => {
    ledgerFiles.set(kind, path.join(scratch, `${kind}.jsonl`));
    const env = {
      ...fixtureEnv(ledgerFiles.get(kind)!),
      STACKBONE_API_KEYS: KEY,
      STACKBONE_SECRET: SECRET,
      STACKBONE_PUBLIC_URL: `http://127.0.0.1:${testPort(PORTS[kind])}`,
    };
    servers.set(kind, await startServer({ port: PORTS[kind], databaseUrl, env }));
  };
  await Promise.all([
    start('sqlite', await freshSqliteUrl()),
    (async () => {
      if (await postgresReachable()) await start('postgres', await freshPostgresUrl('stackbone_receipts'));
    })(),
  ]);
}, 60_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all([...servers.values()].map((server) => server.kill()));
});

/** The CLI as a user runs it, offline: a key set from a file. */
function runCli(args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, STACKBONE_URL: 'http://127.0.0.1:9' } });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** The same receipt with one claim changed and the signature kept: what someone editing a receipt makes. */
function tampered(receipt: string, change: Partial<ReceiptClaims>): string {
  const [header, payload, signature] = receipt.split('.');
  const claims = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')), ...change };
  return [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

for (const kind of Object.keys(PORTS) as Kind[]) {
  describe(`signed approval receipts on ${kind}`, () => {
    const server = () => {
      const found = servers.get(kind);
      if (!found) throw new Error(`no ${kind} server (PostgreSQL unreachable?)`);
      return found;
    };
    const get = async <T>(url: string, headers: Record<string, string> = auth) => {
      const response = await fetch(`${server().url}${url}`, { headers });
      if (response.status !== 200) console.log(server().output().slice(-3000));
      expect(response.status, url).toBe(200);
      return (await response.json()) as T;
    };

    /** A refund paused in a new thread of the key's, with its interrupt. */
    async function pausedRefund(amount: number) {
      const threadId = randomUUID();
      const runId = randomUUID();
      const first = await postRun(server().url, 'helpdesk', { threadId, runId, messages: [userMessage(`refund order po_42 for ${amount}`)] }, auth);
      const outcome = (first.events.at(-1) as RunFinishedEvent).outcome;
      if (outcome?.type !== 'interrupt') throw new Error(`expected a pause, got ${JSON.stringify(first.events.at(-1))}`);
      return { threadId, runId, interrupt: outcome.interrupts[0] as { id: string; toolCallId: string } };
    }

    /** The refund the call ran with, from its tool result once the continuation has written it. */
    async function refundRan(threadId: string, toolCallId: string) {
      const result = await eventually(
        async () => {
          const events = await readSessionEvents(server().databaseUrl, threadId, owner);
          return events.find(
            (event): event is Extract<SessionEvent, { type: 'tool_result' }> => event.type === 'tool_result' && event.message.toolCallId === toolCallId,
          );
        },
        15_000,
        `the refund's result in ${threadId}`,
      );
      const { orderId, amount } = result.output as { orderId: string; amount: number };
      return { orderId, amount };
    }

    async function checked(receipt: string, keys: JSONWebKeySet): Promise<ReceiptClaims> {
      const { payload, protectedHeader } = await compactVerify(receipt, createLocalJWKSet(keys));
      expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'stackbone-receipt+jws', kid: keys.keys[0]!.kid });
      return JSON.parse(new TextDecoder().decode(payload)) as ReceiptClaims;
    }

    it('signs a decision on every channel, pins the arguments that ran, and the CLI verifies it offline', async () => {
      const jwks = await get<JSONWebKeySet>('/.well-known/jwks.json', {});
      expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: expect.any(String) })]);
      expect(jwks.keys[0]).not.toHaveProperty('d');

      // 1. Approved in the chat: the AG-UI resume.
      const chat = await pausedRefund(19.99);
      await postRun(
        server().url,
        'helpdesk',
        {
          threadId: chat.threadId,
          runId: randomUUID(),
          parentRunId: chat.runId,
          messages: [],
          resume: [{ interruptId: chat.interrupt.id, status: 'resolved', payload: { approved: true } }],
        },
        auth,
      );
      const chatRan = await refundRan(chat.threadId, chat.interrupt.toolCallId);

      // 2. Approved with edits over /api/hitl.
      const edited = await pausedRefund(40);
      const decided = await fetch(`${server().url}/api/hitl/${edited.interrupt.id}/approve`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ editedArgs: { orderId: 'po_42', amount: 12.5 } }),
      });
      expect(decided.status).toBe(200);
      const editedRan = await refundRan(edited.threadId, edited.interrupt.toolCallId);
      expect(editedRan).toEqual({ orderId: 'po_42', amount: 12.5 });

      // 3. Rejected through the mailed link.
      const mailed = await pausedRefund(30);
      const token = signLink({
        interruptId: mailed.interrupt.id,
        action: 'reject',
        argsHash: argumentsHash({ orderId: 'po_42', amount: 30 }),
        expiresAt: linkExpiry(undefined),
        recipient: 'email:desk@example.com',
      });
      const rejected = await fetch(`${server().url}/api/links/decide`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server().url },
        body: new URLSearchParams({ token, reason: 'Refunded by hand already' }),
      });
      expect(rejected.status).toBeLessThan(400);

      // 4. Approved over the OpenAI-compatible Responses wire.
      const openai = new OpenAI({ baseURL: `${server().url}/api/v1`, apiKey: KEY });
      const paused = await openai.responses.create({ model: 'helpdesk', input: 'refund order po_42 for 5' });
      const request = paused.output.find((item) => item.type === 'mcp_approval_request');
      if (request?.type !== 'mcp_approval_request') throw new Error('expected an approval request');
      await openai.responses.create({
        model: 'helpdesk',
        previous_response_id: paused.id,
        input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
      });

      // Every decision is in the decision export with its receipt.
      const exported = await eventually(
        async () => {
          const response = await fetch(`${server().url}/api/hitl/decisions`, { headers: auth });
          const lines = (await response.text())
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { interruptId: string; receipt: string | null; argsRun: unknown });
          const ids = [chat.interrupt.id, edited.interrupt.id, mailed.interrupt.id, request.id];
          return ids.every((id) => lines.some((line) => line.interruptId === id)) && lines;
        },
        15_000,
        'the four decisions in the export',
      );
      const receiptOf = (interruptId: string) => exported.find((line) => line.interruptId === interruptId)!.receipt!;

      const chatClaims = await checked(receiptOf(chat.interrupt.id), jwks);
      expect(chatClaims).toMatchObject({
        iss: server().url,
        sessionId: chat.threadId,
        runId: chat.runId,
        interruptId: chat.interrupt.id,
        toolCallId: chat.interrupt.toolCallId,
        tool: 'refundPayment',
        kind: 'decision',
        decision: 'approved',
        channel: 'chat',
        decidedBy: expect.stringMatching(/^key:/),
        argsDigest: argsDigest(chatRan),
        nonce: expect.any(String),
      });
      expect(chatClaims).not.toHaveProperty('originalArgsDigest');
      // The session's own receipts: the same one, for its owner.
      expect((await get<{ receipts: string[] }>(`/api/v1/sessions/${chat.threadId}/receipts`)).receipts).toEqual([receiptOf(chat.interrupt.id)]);

      const editedClaims = await checked(receiptOf(edited.interrupt.id), jwks);
      expect(editedClaims).toMatchObject({
        decision: 'approved',
        channel: 'http',
        argsDigest: argsDigest(editedRan),
        originalArgsDigest: argsDigest({ orderId: 'po_42', amount: 40 }),
      });

      const linkClaims = await checked(receiptOf(mailed.interrupt.id), jwks);
      expect(linkClaims).toMatchObject({
        decision: 'denied',
        reason: 'Refunded by hand already',
        channel: 'email',
        decidedBy: 'email:desk@example.com',
        argsDigest: argsDigest({ orderId: 'po_42', amount: 30 }),
      });
      expect(refundsIn(ledgerFiles.get(kind)!).map((line) => line.toolCallId)).not.toContain(mailed.interrupt.toolCallId);

      const wireClaims = await checked(receiptOf(request.id), jwks);
      expect(wireClaims).toMatchObject({ decision: 'approved', channel: 'responses', argsDigest: argsDigest({ orderId: 'po_42', amount: 5 }) });

      // The CLI, offline: the key set saved to a file, the server out of reach.
      const keysFile = path.join(scratch, `${kind}-jwks.json`);
      await writeFile(keysFile, JSON.stringify(jwks));
      const receiptFile = path.join(scratch, `${kind}-edited.jws`);
      await writeFile(receiptFile, `${receiptOf(edited.interrupt.id)}\n`);
      const verified = runCli(['receipt', 'verify', receiptFile, '--jwks', keysFile, '--args', JSON.stringify({ amount: 12.5, orderId: 'po_42' })]);
      expect(verified.err).toBe('');
      expect(verified.code).toBe(0);
      expect(verified.out).toContain('✓ valid receipt');
      expect(verified.out).toMatch(/interruptId\s+int_/);
      expect(verified.out).toContain(`argsDigest          ${argsDigest(editedRan)}`);

      // The whole export at once: every receipt in it (the four decisions) verifies.
      const exportFile = path.join(scratch, `${kind}-decisions.jsonl`);
      await writeFile(exportFile, exported.map((line) => JSON.stringify(line)).join('\n'));
      const all = runCli(['receipt', 'verify', exportFile, '--jwks', keysFile, '--json']);
      expect(all.code).toBe(0);
      expect((JSON.parse(all.out) as { receipts: { ok: boolean }[] }).receipts.filter((result) => result.ok).length).toBeGreaterThanOrEqual(4);

      // Changed after it was signed: the edit made to look like the amount the model asked for.
      const forged = path.join(scratch, `${kind}-forged.jws`);
      await writeFile(forged, tampered(receiptOf(edited.interrupt.id), { argsDigest: argsDigest({ orderId: 'po_42', amount: 40 }) }));
      const refusedForged = runCli(['receipt', 'verify', forged, '--jwks', keysFile]);
      expect(refusedForged.code).toBe(1);
      expect(refusedForged.out).toContain('the signature does not match: the receipt was changed after it was signed');

      // A valid receipt held up for other arguments than the ones it approved.
      const otherArgs = runCli(['receipt', 'verify', receiptFile, '--jwks', keysFile, '--args', JSON.stringify({ orderId: 'po_42', amount: 40 })]);
      expect(otherArgs.code).toBe(1);
      expect(otherArgs.out).toContain('the arguments given are not the ones the receipt approved');

      // Another server's keys do not verify ours.
      const strangerKeys = path.join(scratch, `${kind}-stranger.json`);
      const stranger = runCli(['receipt', 'key']);
      const { d: _private, ...strangerPublic } = JSON.parse(stranger.out) as Record<string, string>;
      await writeFile(strangerKeys, JSON.stringify({ keys: [{ ...strangerPublic, kid: 'stranger', alg: 'EdDSA' }] }));
      const unlisted = runCli(['receipt', 'verify', receiptFile, '--jwks', strangerKeys]);
      expect(unlisted.code).toBe(1);
      expect(unlisted.out).toContain('signed by a key the key set does not list');
    }, 90_000);

    it("answers a session's receipts to its owner only, and its key set to anyone", async () => {
      const { threadId, interrupt } = await pausedRefund(3);
      expect((await get<{ receipts: string[] }>(`/api/v1/sessions/${threadId}/receipts`)).receipts).toEqual([]);
      const stranger = await fetch(`${server().url}/api/v1/sessions/${threadId}/receipts`);
      expect(stranger.status).toBe(401);
      const cancelled = await fetch(`${server().url}/api/hitl/${interrupt.id}/cancel`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(cancelled.status).toBe(200);
      const [receipt] = (await get<{ receipts: string[] }>(`/api/v1/sessions/${threadId}/receipts`)).receipts;
      const claims = await checked(receipt!, await get<JSONWebKeySet>('/.well-known/jwks.json', {}));
      expect(claims).toMatchObject({ decision: 'cancelled', channel: 'http', interruptId: interrupt.id });
    });
  });
}
