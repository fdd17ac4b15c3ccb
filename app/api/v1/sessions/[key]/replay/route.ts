import { handleReplay } from '@/server/routes/v1/sessions/replay';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// A replay on a real model makes every model call again, inside the request (docs/replay.md).
export const maxDuration = 300;

export async function POST(request: Request, { params }: { params: Promise<{ key: string }> }) {
  return handleReplay(request, (await params).key);
}
