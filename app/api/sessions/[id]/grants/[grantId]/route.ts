import { handleGrantRevoke } from '@/server/routes/session-grants';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function DELETE(request: Request, { params }: { params: Promise<{ id: string; grantId: string }> }) {
  const { id, grantId } = await params;
  return handleGrantRevoke(request, id, grantId);
}
