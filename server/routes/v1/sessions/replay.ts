// A session's recording and its replay (docs/replay.md): GET /api/v1/sessions/{key}/recording
// answers the recording file (the session's stored events, JSONL); POST .../replay re-runs it
// against the current code of its agent, or of `against`, and answers the diff. The session is
// the caller's own (ownedSession); the replay runs on a scratch store (server/runtime/replay).
import { z } from 'zod';
import { findAgent } from '../../../agents';
import { readJsonBody } from '../../../http/body';
import { errorResponse, HttpError } from '../../../http/errors';
import { resolveCaller } from '../../../identity/owner';
import { describeIssue, ownedSession, recordingFile, replay, scopedSessionId } from '../../../runtime';
import { getStore } from '../../../store';
import { jsonResponse } from '../../../http/small-answers';

const replayBody = z.object({ against: z.string().min(1).max(64).optional() }).strict();

async function recordedSession(request: Request, key: string) {
  const caller = await resolveCaller(request, { member: true });
  const store = getStore();
  const session = await ownedSession(store, { sessionId: scopedSessionId(caller.ownerId, key), ownerId: caller.ownerId });
  return { session, events: await store.readEvents(session.id) };
}

export async function handleRecording(request: Request, key: string): Promise<Response> {
  try {
    const { session, events } = await recordedSession(request, key);
    return new Response(recordingFile({ agent: session.agent, session: key, events }), {
      headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' },
    });
  } catch (error) {
    return errorResponse(error, 'Session recording');
  }
}

export async function handleReplay(request: Request, key: string): Promise<Response> {
  try {
    const parsed = replayBody.safeParse(await readJsonBody(request, undefined, { optional: true }));
    if (!parsed.success) throw new HttpError('invalid_request', `Invalid body for replay: ${describeIssue(parsed.error, '(body)')}`);
    const { session, events } = await recordedSession(request, key);
    const name = parsed.data.against ?? session.agent;
    const agent = findAgent(name);
    if (!agent) throw new HttpError('not_found', `No agent "${name}".`, { what: 'agent' });
    const report = await replay(events, agent);
    return jsonResponse({ session: key, recordedAgent: session.agent, ...report }, { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    return errorResponse(error, 'Session replay');
  }
}
