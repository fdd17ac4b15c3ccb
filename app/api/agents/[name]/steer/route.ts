import { handleSteer } from '@/server/routes/agents/steer';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }) {
  return handleSteer(request, { agent: (await params).name });
}
