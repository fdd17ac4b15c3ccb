import { handleRoleChange } from '@/server/routes/studio/team';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  return handleRoleChange(request);
}
