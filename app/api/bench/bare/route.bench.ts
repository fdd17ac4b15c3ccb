// The bench's baselines (bench/bare-route.ts). A route only in the bench's own build: Next reads
// the `.bench.ts` page extension only under STACKBONE_BENCH=1 (next.config.ts, docs/internals/benchmarks.md),
// so a product build holds neither this file nor bench/. Even there it answers 404 unless the
// server runs with STACKBONE_BENCH=1, and then only to a caller of the API (a key, when keys are
// configured).
import { bareRead, bareStream, benchCaller } from '@/bench/bare-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  const caller = await benchCaller(request);
  return caller instanceof Response ? caller : bareStream(request);
}

export async function GET(request: Request) {
  const caller = await benchCaller(request);
  return caller instanceof Response ? caller : bareRead(request, caller.ownerId);
}
