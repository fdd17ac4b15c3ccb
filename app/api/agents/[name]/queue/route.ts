import { handleQueue } from '@/server/wire/agui/queue';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }) {
  return handleQueue(request, { agent: (await params).name });
}
