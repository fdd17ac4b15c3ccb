import { handleRecoverySweep } from '@/server/http/cron';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return handleRecoverySweep(request);
}
