// The baselines of `npm run bench` (docs/internals/benchmarks.md), served at /api/bench/bare by the same
// build as the product it measures, so that both sides of every ratio go through the same `next
// start`, the same HTTP stack and the same process. Nothing here is the product: the route is only
// in the bench's own build of it (app/api/bench/bare/route.bench.ts, next.config.ts), made and
// started with STACKBONE_BENCH=1, which only bench/run.mjs sets; it answers 404 without it — and
// even then only to a caller of the API (docs/security.md, "What each credential can do"): a key
// when keys are configured, reading only that key's threads; without keys, open dev mode's own
// rules, and a production build serves it only with STACKBONE_ALLOW_OPEN_ACCESS=1.
//   POST {prompt, format}  the scripted model through AI SDK streamText and nothing else: no
//                     session, no log, no fold (the bare side of "stream overhead"), returned as
//                     its text stream (format 'text') or its UI message stream (format 'sse')
//   GET ?threadId=T   the thread's log rows read by Prisma as they are (the bare side of "reopen")
import { streamText } from 'ai';
import { errorResponse } from '../server/http/errors';
import { openAccessAllowed } from '../server/identity/open-access';
import { isOpenDevMode, resolveCaller, type Caller } from '../server/identity/owner';
import { createScriptedModel } from '../server/models/scripted';
import { databaseUrl } from '../server/store/database-url';
import { openPrismaClient, type StoreClient } from '../server/store/prisma-client';
import { scopedSessionId } from '../server/runtime';

function benchRoutesEnabled(): boolean {
  return process.env.STACKBONE_BENCH === '1';
}

/** What any path the product does not serve answers. */
function notServed(): Response {
  return new Response('Not Found', { status: 404 });
}

/** The caller the bench route serves, or the response that refuses the request. */
export async function benchCaller(request: Request): Promise<Caller | Response> {
  if (!benchRoutesEnabled()) return notServed();
  // A production server without keys runs only with the opt-in (start-checks.ts); said again here.
  if (process.env.NODE_ENV === 'production' && isOpenDevMode() && !openAccessAllowed()) return notServed();
  try {
    return await resolveCaller(request);
  } catch (error) {
    return errorResponse(error, 'bench route');
  }
}

export async function bareStream(request: Request): Promise<Response> {
  const { prompt, format } = (await request.json()) as { prompt?: unknown; format?: unknown };
  // The same model the product's turns use under STACKBONE_MODEL=scripted (server/models/resolve.ts).
  const result = streamText({ model: createScriptedModel(), messages: [{ role: 'user', content: String(prompt ?? '') }] });
  // 'text': the stream's text and nothing more, the least a route can return. 'sse': the AI SDK's
  // own SSE protocol, a JSON event per delta as AG-UI has, what a bare AI SDK chat route returns.
  // Sent uncompressed, as the product's SSE responses are (server/http/sse.ts: no-transform):
  // otherwise `next start` gzips the baseline alone and the ratio measures zlib, not us.
  const init = { headers: { 'Cache-Control': 'no-cache, no-transform' } };
  return format === 'sse' ? result.toUIMessageStreamResponse(init) : result.toTextStreamResponse(init);
}

const cache = globalThis as typeof globalThis & { __stackboneBenchClient?: Promise<StoreClient> };

export async function bareRead(request: Request, ownerId: string): Promise<Response> {
  const threadId = new URL(request.url).searchParams.get('threadId') ?? '';
  // The caller's own session only: a thread is stored under its owner (server/runtime/session/session-id.ts),
  // so a key reads its own threads and open dev mode's one owner holds them all.
  const sessionId = scopedSessionId(ownerId, threadId);
  // A client of its own, as a bare Prisma app would have; opened once per process.
  cache.__stackboneBenchClient ??= openPrismaClient(databaseUrl()).then((opened) => opened.client);
  const db = await cache.__stackboneBenchClient;
  const rows = await db.event.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
  return Response.json(rows);
}
