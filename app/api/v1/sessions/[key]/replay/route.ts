import { handleReplay } from '@/server/routes/v1/sessions/replay';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ key: string }> }) {
  return handleReplay(request, (await params).key);
}
