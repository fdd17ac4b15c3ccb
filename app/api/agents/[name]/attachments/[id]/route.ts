import { handleGetAttachment } from '@/server/routes/agents/attachments';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ name: string; id: string }> }) {
  const { name, id } = await params;
  return handleGetAttachment(request, name, id);
}
