import { handleTeamList } from '@/server/routes/studio/team';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return handleTeamList(request);
}
