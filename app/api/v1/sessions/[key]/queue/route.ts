import { handleQueue } from '@/server/wire/agui/queue';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ key: string }> }) {
  return handleQueue(request, { sessionKey: (await params).key });
}
