import { handleRecording } from '@/server/routes/v1/sessions/replay';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ key: string }> }) {
  return handleRecording(request, (await params).key);
}
