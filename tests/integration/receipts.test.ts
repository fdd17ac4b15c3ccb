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

type Database = keyof typeof PORTS;
const servers = new Map<Database, TestServer>();
const ledgerFiles = new Map<Database, string>();
let scratch = '';

beforeAll(async () => {
  // The test process mints the mailed link as the servers do.
  vi.stubEnv('STACKBONE_SECRET', SECRET);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'stackbone-receipts-'));
  const start = async (kind: Database, databaseUrl: string) => {
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

for (const serverKind of Object.keys(PORTS) as Database[]) {
  describe(`signed approval receipts on ${serverKind}`, () => {
    const server = () => {
      const found = servers.get(serverKind);
      if (!found) throw new Error(`no ${serverKind} server (PostgreSQL unreachable?)`);
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

    type Kind = 'approve' | 'edit' | 'reject';
    type Channel = 'chat' | 'http' | 'email' | 'responses';
    interface Decided {
      threadId?: string;
      interruptId: string;
      toolCallId?: string;
      asked: { orderId: string; amount: number };
      edited?: { orderId: string; amount: number };
    }
    const REASON = 'Refunded by hand already';
    let amounts = 1;

    /** Pauses a refund on `channel` and decides it `kind` there, as a user of that channel does. */
    async function decide(channel: Channel, kind: Kind): Promise<Decided> {
      const asked = { orderId: 'po_42', amount: amounts++ };
      const edited = kind === 'edit' ? { orderId: 'po_42', amount: asked.amount + 0.5 } : undefined;
      if (channel === 'responses') {
        const openai = new OpenAI({ baseURL: `${server().url}/api/v1`, apiKey: KEY });
        const paused = await openai.responses.create({ model: 'helpdesk', input: `refund order po_42 for ${asked.amount}` });
        const request = paused.output.find((item) => item.type === 'mcp_approval_request');
        if (request?.type !== 'mcp_approval_request') throw new Error('expected an approval request');
        await openai.responses.create({
          model: 'helpdesk',
          previous_response_id: paused.id,
          input: [
            { type: 'mcp_approval_response', approval_request_id: request.id, approve: kind !== 'reject', ...(kind === 'reject' ? { reason: REASON } : {}) },
          ],
        });
        return { interruptId: request.id, asked };
      }
      const { threadId, runId, interrupt } = await pausedRefund(asked.amount);
      const base = { threadId, interruptId: interrupt.id, toolCallId: interrupt.toolCallId, asked, ...(edited ? { edited } : {}) };
      if (channel === 'chat') {
        const payload = kind === 'reject' ? { approved: false, reason: REASON } : { approved: true, ...(edited ? { editedArgs: edited } : {}) };
        await postRun(
          server().url,
          'helpdesk',
          { threadId, runId: randomUUID(), parentRunId: runId, messages: [], resume: [{ interruptId: interrupt.id, status: 'resolved', payload }] },
          auth,
        );
      } else if (channel === 'http') {
        const body = kind === 'reject' ? { reason: REASON } : edited ? { editedArgs: edited } : {};
        const response = await fetch(`${server().url}/api/hitl/${interrupt.id}/${kind === 'reject' ? 'reject' : 'approve'}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(200);
      } else {
        const token = signLink({
          interruptId: interrupt.id,
          action: kind === 'reject' ? 'reject' : 'approve',
          argsHash: argumentsHash(asked),
          expiresAt: linkExpiry(undefined),
          recipient: 'email:desk@example.com',
        });
        const response = await fetch(`${server().url}/api/links/decide`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server().url },
          body: new URLSearchParams({ token, ...(kind === 'reject' ? { reason: REASON } : {}) }),
        });
        expect(response.status).toBeLessThan(400);
      }
      return base;
    }

    // Every decision each channel can make: a link and the Responses wire approve or reject (neither edits).
    const MATRIX: [Channel, Kind][] = [
      ['chat', 'approve'],
      ['chat', 'edit'],
      ['chat', 'reject'],
      ['http', 'approve'],
      ['http', 'edit'],
      ['http', 'reject'],
      ['email', 'approve'],
      ['email', 'reject'],
      ['responses', 'approve'],
      ['responses', 'reject'],
    ];

    it('signs every decision on every channel, pins the arguments that ran, and the CLI verifies it offline', async () => {
      const jwks = await get<JSONWebKeySet>('/.well-known/jwks.json', {});
      expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: expect.any(String) })]);
      expect(jwks.keys[0]).not.toHaveProperty('d');

      const decided: { channel: Channel; kind: Kind; call: Decided }[] = [];
      for (const [channel, kind] of MATRIX) decided.push({ channel, kind, call: await decide(channel, kind) });

      // Every decision is in the decision export with its receipt.
      const exported = await eventually(
        async () => {
          const response = await fetch(`${server().url}/api/hitl/decisions`, { headers: auth });
          const lines = (await response.text())
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { interruptId: string; receipt: string | null; argsRun: unknown; session: string; toolCallId: string });
          return decided.every(({ call }) => lines.some((line) => line.interruptId === call.interruptId)) && lines;
        },
        20_000,
        'every decision in the export',
      );
      const lineOf = (interruptId: string) => exported.find((line) => line.interruptId === interruptId)!;

      for (const { channel, kind, call } of decided) {
        const line = lineOf(call.interruptId);
        const claims = await checked(line.receipt!, jwks);
        const threadId = call.threadId ?? line.session;
        const toolCallId = call.toolCallId ?? line.toolCallId;
        expect(claims, `${kind} over ${channel}`).toMatchObject({
          iss: server().url,
          sessionId: threadId,
          interruptId: call.interruptId,
          toolCallId,
          tool: 'refundPayment',
          kind: 'decision',
          decision: kind === 'reject' ? 'denied' : 'approved',
          channel,
          decidedBy: channel === 'email' ? 'email:desk@example.com' : expect.stringMatching(/^key:/),
          nonce: expect.any(String),
        });
        if (kind === 'reject') {
          // Nothing ran: the digest is of the arguments asked, and no refund was made for the call.
          expect(claims).toMatchObject({ reason: REASON, argsDigest: argsDigest(call.asked) });
          expect(refundsIn(ledgerFiles.get(serverKind)!).map((refund) => refund.toolCallId)).not.toContain(toolCallId);
        } else {
          // The digest is of the arguments the refund ran with (its tool result), the edit's when edited.
          const ran = await refundRan(threadId, toolCallId);
          expect(ran).toEqual(call.edited ?? call.asked);
          expect(claims.argsDigest).toBe(argsDigest(ran));
          if (call.edited) expect(claims.originalArgsDigest).toBe(argsDigest(call.asked));
          else expect(claims).not.toHaveProperty('originalArgsDigest');
        }
      }

      // The session's own receipts: the same one, for its owner.
      const [chat] = decided;
      expect((await get<{ receipts: string[] }>(`/api/v1/sessions/${chat!.call.threadId}/receipts`)).receipts).toEqual([
        lineOf(chat!.call.interruptId).receipt,
      ]);

      // The CLI, offline: the key set saved to a file, the server out of reach.
      const edit = decided.find(({ channel, kind }) => channel === 'http' && kind === 'edit')!.call;
      const keysFile = path.join(scratch, `${serverKind}-jwks.json`);
      await writeFile(keysFile, JSON.stringify(jwks));
      const receiptFile = path.join(scratch, `${serverKind}-edited.jws`);
      await writeFile(receiptFile, `${lineOf(edit.interruptId).receipt}\n`);
      const verified = runCli([
        'receipt',
        'verify',
        receiptFile,
        '--jwks',
        keysFile,
        '--args',
        JSON.stringify({ amount: edit.edited!.amount, orderId: 'po_42' }),
      ]);
      expect(verified.err).toBe('');
      expect(verified.code).toBe(0);
      expect(verified.out).toContain('✓ valid receipt');
      expect(verified.out).toMatch(/interruptId\s+int_/);
      expect(verified.out).toContain(`argsDigest          ${argsDigest(edit.edited)}`);

      // The whole export at once: every receipt in it verifies.
      const exportFile = path.join(scratch, `${serverKind}-decisions.jsonl`);
      await writeFile(exportFile, exported.map((line) => JSON.stringify(line)).join('\n'));
      const all = runCli(['receipt', 'verify', exportFile, '--jwks', keysFile, '--json']);
      expect(all.code).toBe(0);
      expect((JSON.parse(all.out) as { receipts: { ok: boolean }[] }).receipts.filter((result) => result.ok).length).toBeGreaterThanOrEqual(MATRIX.length);

      // Changed after it was signed: the edit made to look like the amount the model asked for.
      const forged = path.join(scratch, `${serverKind}-forged.jws`);
      await writeFile(forged, tampered(lineOf(edit.interruptId).receipt!, { argsDigest: argsDigest(edit.asked) }));
      const refusedForged = runCli(['receipt', 'verify', forged, '--jwks', keysFile]);
      expect(refusedForged.code).toBe(1);
      expect(refusedForged.out).toContain('the signature does not match: the receipt was changed after it was signed');

      // A valid receipt held up for other arguments than the ones it approved.
      const otherArgs = runCli(['receipt', 'verify', receiptFile, '--jwks', keysFile, '--args', JSON.stringify(edit.asked)]);
      expect(otherArgs.code).toBe(1);
      expect(otherArgs.out).toContain('the arguments given are not the ones the receipt approved');

      // Another server's keys do not verify ours.
      const strangerKeys = path.join(scratch, `${serverKind}-stranger.json`);
      const stranger = runCli(['receipt', 'key']);
      const { d: _private, ...strangerPublic } = JSON.parse(stranger.out) as Record<string, string>;
      await writeFile(strangerKeys, JSON.stringify({ keys: [{ ...strangerPublic, kid: 'stranger', alg: 'EdDSA' }] }));
      const unlisted = runCli(['receipt', 'verify', receiptFile, '--jwks', strangerKeys]);
      expect(unlisted.code).toBe(1);
      expect(unlisted.out).toContain('signed by a key the key set does not list');
    }, 120_000);

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
