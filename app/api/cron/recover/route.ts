import { after } from 'next/server';
import { handleRecoverySweep } from '@/server/routes/cron/recover';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const maxDuration = 300;

export async function GET(request: Request) {
  // The sweep answers once recovered runs have started; after() keeps them going on Vercel.
  return handleRecoverySweep(request, after);
}
