// The bench's baselines (bench/bare-route.ts): 404 unless the server runs with STACKBONE_BENCH=1.
import { bareRead, bareStream, benchRoutesEnabled, notServed } from '@/bench/bare-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  return benchRoutesEnabled() ? bareStream(request) : notServed();
}

export async function GET(request: Request) {
  return benchRoutesEnabled() ? bareRead(request) : notServed();
}
