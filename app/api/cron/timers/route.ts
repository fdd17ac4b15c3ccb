import { after } from 'next/server';
import { handleTimerTick } from '@/server/routes/cron/timers';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const maxDuration = 300;

export async function GET(request: Request) {
  // Answers once the due timers' runs have started; after() keeps them going on Vercel.
  return handleTimerTick(request, after);
}
