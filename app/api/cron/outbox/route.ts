import { handleOutboxTick } from '@/server/routes/cron/outbox';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const maxDuration = 300;

export async function GET(request: Request) {
  return handleOutboxTick(request);
}
