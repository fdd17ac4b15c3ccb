import { handleSteer } from '@/server/routes/agents/steer';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ key: string }> }) {
  return handleSteer(request, { sessionKey: (await params).key });
}
