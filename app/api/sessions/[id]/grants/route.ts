import { handleGrantList } from '@/server/routes/session-grants';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleGrantList(request, (await params).id);
}
