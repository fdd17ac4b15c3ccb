import { handleSessionList } from '@/server/routes/sessions';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return handleSessionList(request);
}
