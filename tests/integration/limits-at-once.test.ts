// The per-session limits hold under concurrency (docs/security.md, "What a request may carry"):
// 200 queue adds and 200 steers sent at the same moment to one busy thread, on SQLite and
// PostgreSQL. The store counts and writes each as one step (server/store/limited-write.ts), so
// exactly the limit is accepted — on PostgreSQL too, whose pool of connections once let all 200
// adds through — the rest are 429 with their code, and only the accepted ones ever reach the log:
// the guidance the run takes and the turns the queue becomes.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../server/credentials/open-dev-mode';
import { releaseEffect } from '../fixtures/agents/ledger';
import { readThread } from '../support/agui';
import { backends } from '../support/backends';
import { eventually, readSessionEvents, readSessionRows } from '../support/inspect';

const AT_ONCE = 200;
/** The defaults the shared servers run with (STACKBONE_MAX_QUEUED_MESSAGES, STACKBONE_MAX_STEERS_PER_RUN). */
const MAX_QUEUED = 32;
const MAX_STEERS = 32;

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(60_000) });

/** Sends every request at once; answers each one's status and error code, by the id it carried. */
async function atOnce(url: string, bodies: { id: string }[]) {
  return Promise.all(
    bodies.map(async (body) => {
      const response = await post(url, body);
      const answer = (await response.json()) as { error?: { code: string } };
      return { id: body.id, status: response.status, code: answer.error?.code };
    }),
  );
}

for (const server of backends()) {
  describe(`limits at once on ${server.kind}`, () => {
    it(`${AT_ONCE} steers and ${AT_ONCE} queue adds at once on a busy thread: the limits accepted, the rest 429, only the accepted run`, async () => {
      const threadId = `at-once-${randomUUID()}`;
      const first = randomUUID();
      // A turn busy in its tool until the requests are answered (released below; 30 s at most); the
      // guidance goes in when the tool is done, the queue after the turn.
      const busy = post(`${server.url}/api/agents/ledger`, {
        threadId,
        runId: randomUUID(),
        messages: [{ id: first, role: 'user', content: `call noteEffect {"key":"${threadId}","sleepMs":30000}` }],
        tools: [],
        context: [],
        state: {},
        forwardedProps: {},
      }).then((response) => response.text());
      await eventually(async () => (await readThread(server.url, 'ledger', threadId)).body.status === 'running', 15_000, 'the busy turn');

      const steers = await atOnce(
        `${server.url}/api/agents/ledger/steer`,
        Array.from({ length: AT_ONCE }, (_, i) => ({ threadId, id: `steer-${i}-${randomUUID()}`, text: `guidance ${i}` })),
      );
      const adds = await atOnce(
        `${server.url}/api/agents/ledger/queue`,
        Array.from({ length: AT_ONCE }, (_, i) => ({ threadId, op: 'add', id: `queued-${i}-${randomUUID()}`, text: 'say 2 words' })),
      );
      // The turn was busy throughout: on a thread that fell idle, an add goes out at once and the queue never fills.
      expect((await readThread(server.url, 'ledger', threadId)).body.status, 'the turn outlasts the requests (else this machine is too slow)').toBe('running');

      const tally = (answers: { status: number; code?: string }[]) => {
        const counts: Record<string, number> = {};
        for (const { status, code } of answers) counts[`${status}${code ? ` ${code}` : ''}`] = (counts[`${status}${code ? ` ${code}` : ''}`] ?? 0) + 1;
        return counts;
      };
      expect(tally(steers)).toEqual({ 202: MAX_STEERS, '429 too_many_steers': AT_ONCE - MAX_STEERS });
      expect(tally(adds)).toEqual({ 200: MAX_QUEUED, '429 queue_full': AT_ONCE - MAX_QUEUED });

      // Nothing more was written beside the log than was accepted.
      const rows = await readSessionRows(server.databaseUrl, threadId, LOCAL_OWNER);
      expect(rows.steers).toHaveLength(MAX_STEERS);
      expect(rows.queue).toHaveLength(MAX_QUEUED);

      // The turn takes its guidance and ends; the queue goes out, one turn per message; then the thread rests.
      releaseEffect(server.ledgerFile, threadId);
      await busy;
      await eventually(
        async () => {
          const { body } = await readThread(server.url, 'ledger', threadId);
          return body.status === 'idle' && body.queue.length === 0;
        },
        120_000,
        'the queue to go out',
      );
      const log = await readSessionEvents(server.databaseUrl, threadId);
      const userIds = log.flatMap((event) => (event.type === 'message_added' && event.message.role === 'user' ? [event.message.id] : []));
      const accepted = (answers: { id: string; status: number }[]) => answers.filter((answer) => answer.status < 300).map((answer) => answer.id);
      expect(new Set(userIds)).toEqual(new Set([first, ...accepted(steers), ...accepted(adds)]));
      expect(userIds).toHaveLength(1 + MAX_STEERS + MAX_QUEUED);
      expect(log.filter((event) => event.type === 'run_started')).toHaveLength(1 + MAX_QUEUED);
    }, 240_000);
  });
}
