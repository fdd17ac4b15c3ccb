import { handleUploadAttachment } from '@/server/routes/agents/attachments';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }) {
  return handleUploadAttachment(request, (await params).name);
}
