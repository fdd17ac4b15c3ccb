import { healthResponse } from '@/server/routes/health';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function GET(request: Request) {
  return healthResponse(request);
}
