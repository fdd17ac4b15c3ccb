// The method section of docs/benchmarks.md: how each figure is taken, and where it is not what
// the issue asked for, why, and what is measured instead. Written out with the figures by
// bench/lib/report.ts on every run.
export const METHOD = `
## How to run

\`npm run bench\` (full, several minutes) or \`npm run bench -- --quick\` (under 2 minutes on a
2-core machine). Both reuse the production build in \`.next/\` (and run \`next build\` first when
there is none, when it has no bench route, or with \`-- --build\`; a build older than the code is
named in a warning, as its figures are the old code's), start \`next start\` on a fresh SQLite file and,
when a server answers at \`TEST_POSTGRES_URL\` (default \`postgres://root@127.0.0.1:5432/test\`), on
a fresh PostgreSQL schema, one server at a time, on ports 3301/3302. Results go to
\`bench/results.json\` (per database under each item; the issue's top-level names —
\`streamOverhead.ttft.ratio\`, \`streamOverhead.total.ratio\`, \`reopen.ratio\` — hold SQLite's
figure, the product's default database), to a table on stdout and to this page. The benchmarks
are not part of \`npm test\`. Quick mode lowers the counts marked below; the counts used are in
\`results.json\` next to each figure.

The baselines are served by the same build and process as the product, by
\`app/api/bench/bare/route.ts\` (\`bench/bare-route.ts\`), which answers 404 unless the server was
started with \`STACKBONE_BENCH=1\` (only the bench sets it; \`tests/integration/bench-route.test.ts\`
checks the 404).

## What each figure is

1. **Stream overhead over HTTP.** A 2,000-token scripted reply (\`reply with 2000 tokens\`)
   through \`POST /api/agents/support\` (AG-UI over SSE, a new thread each run) against the same
   scripted model streamed by the bare route, \`streamText(...)\` returned two ways: its text
   stream (\`toTextStreamResponse()\`, the least a route can send: **the goals are judged against
   it**), and its UI message stream (\`toUIMessageStreamResponse()\`, the AI SDK's own SSE with a
   JSON event per delta, the same kind of stream as AG-UI; shown as "bare SSE"; full mode only, to
   keep quick mode under 2 minutes). The three run one
   at a time in turns, the order rotating, after a warm-up; medians over 50 rounds (quick: 20).
   First token: the first text bytes / \`text-delta\` / \`TEXT_MESSAGE_CONTENT\`; total: the
   stream's last byte. The SSE sides are read by the same minimal reader (\`bench/lib/sse.ts\`).
   The scripted model has no delay between tokens, so a stream is produced as fast as the CPU
   allows and the first token reaches the socket only when the server first yields to the event
   loop: on both sides "first token" includes producing part of the stream, not just the turn's
   set-up. The in-process table is the former \`npm run bench\`: a 500-token reply as a durable
   turn on each store against \`streamText\` alone, no HTTP (full mode adds a turn on a session
   with 300 earlier turns).
2. **Writes per turn.** In process, on the real Prisma store: a turn's log rows (Event rows of
   its session, counted in the database) and its transactions, counted at the SQL drivers
   (\`bench/lib/sql-counter.ts\`: a \`BEGIN\`, or an INSERT/UPDATE/DELETE outside one, is one
   transaction; \`writeStatements\`/\`readStatements\` are in results.json). Lease renewals and
   every other write during the turn count. The HTTP route writes nothing of its own
   (docs/architecture.md, "The step loop"), so the count is the same as over HTTP. The 5-step
   tool turn is the scripted model made to call \`lookupOrder\` in its first four steps and to
   answer in the fifth (the scripted model alone answers after one tool result).
3. **Reopen.** A 1,000-message thread (500 turns) written in process straight into the server's
   database, so the server has never folded it. Then, alternating, 30 times each (quick: 10):
   the bare Prisma read of the thread's Event rows returned as JSON by the bench route (same
   process, a Prisma client of its own), the thread's last run replayed from the log
   (\`GET /api/agents/support?runId&threadId&offset=-1\`) up to its \`MESSAGES_SNAPSHOT\` (999
   messages), and the hydration JSON (\`GET ?threadId\`, 1,000 messages). \`reopen.ratio\` is the
   snapshot's median over the bare read's. After the first read the server's view of the thread
   is warm (docs/architecture.md, "One log, one fold"), so the medians are a warm reopen; the
   cold one (the very first read, before any fold) is one sample, \`reopen.cold\`.
4. **Concurrency.** 200 AG-UI runs (20-token replies, each on a new thread) sent at once to one
   server. Errors: a refusal, a broken stream, a \`RUN_ERROR\`, or a stream not ending in
   \`RUN_FINISHED\` with all 20 tokens. Time to first event: sending → the first SSE event
   (\`RUN_STARTED\`). Turns per second: completed runs over the time from the first request sent
   to the last stream's end.
5. **Approval round trip.** Each sample pauses a new thread on "refund order ord_42 for 19.99"
   (untimed), then times the decision → the approved tool's \`TOOL_CALL_RESULT\` at the client:
   over AG-UI, a resume run (\`resume: [{interruptId, status: 'resolved', payload: {approved:
   true}}]\`) read to that event on its own response; over \`/api/hitl\`,
   \`POST /api/hitl/{id}/approve {}\` with the thread's session stream already open, read to that
   event on the stream. 30 samples per path (quick: 10).
6. **Memory.** VmRSS of the serving process (the largest of \`next start\` and its descendants),
   read 0.5 s after the load stops (no GC can be forced from outside). Turns: RSS after 50 warm-up
   turns, then after 1,000 sequential turns on new threads (quick: 10 and 100). Sessions
   touched: 10,000 sessions (quick: 1,000) exist — copies of one real session written by SQL
   (\`bench/lib/clone-sessions.ts\`), since 10,000 turns would not fit the time — and each is read
   once through the hydration JSON, which folds it into the server's view cache
   (\`STACKBONE_VIEW_CACHE\`, 500 by default); RSS before, halfway and after. "Bounded" means the
   second half of the touches grew RSS by at most 5 %.
7. **Live fan-out.** 50 clients follow one thread's session stream (\`GET ?threadId&offset\`); a
   51st sends a 5-token run on the thread, 20 times (quick: 3) after one warm-up. Timed from
   sending the run to its \`RUN_STARTED\` reaching each follower, and from it reaching the sender
   to it reaching each follower (the fan-out's own share). The append happens inside the
   server; the nearest time a client can observe for it is the sender's own \`RUN_STARTED\`.

## Reading the figures, and what is not as the issue asked

- **First token with a model that never waits.** The scripted model emits its 2,000 deltas with
  no pause, so neither route flushes its first token before it has produced a large part of the
  stream (the socket is written when the server first yields to the event loop). "First token"
  therefore measures producing the start of the stream on both sides, about the same work, and
  the goal "≤ bare + 2 ms" compares those. It says little about a turn's set-up cost before the
  model's first token; a paced model (\`STACKBONE_SCRIPTED_DELAY_MS\`) would, but 2,000 paced
  tokens times 20+ runs per side do not fit in the 2-minute quick mode. The in-process table
  and the approval and fan-out figures are the better view of fixed costs.
- **A ratio below 1.** The AI SDK's own response helpers (\`toTextStreamResponse\`,
  \`toUIMessageStreamResponse\`) take longer per delta than the product's AG-UI encoder, so a
  2,000-token stream ends sooner through \`/api/agents/support\` than through the bare route.
  That bounds the product's HTTP overhead from above against the AI SDK as users would deploy
  it; it is not the physical limit. The in-process ratio (\`streamText\` consumed directly, no
  HTTP) is the runtime's own cost over the bare model.
- **Writes per turn are counted in process**, not in the server: the SQL drivers can only be
  counted where the bench can reach them. The route adds no writes to \`startRun\`'s; the
  lease renewals a long turn makes are counted (a turn here is too short to renew).
- **Reopen's medians are warm** (see item 3); a cold reopen is a single sample per database.
- **10,000 sessions touched are copies**, not 10,000 turns (see item 6); **1,000 turns** in
  full mode, 100 in quick mode.
- **Fan-out is timed from the client** that sends the run: the append itself happens inside the
  server, where the bench cannot time it without instrumenting the product.

## Caveats

- One machine, shared: the 2-core box runs other work, so absolute figures move between runs;
  the ratios against baselines measured in the same run are the figures to compare.
- The client (this bench's Node process) shares the cores with the server: at 200 concurrent
  runs and 50 followers the client's own reading is part of what is timed.
- PostgreSQL is a local server on the same machine: no network latency.
`;
