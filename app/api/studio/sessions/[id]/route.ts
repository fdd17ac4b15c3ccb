import { handleAuditTrail } from '@/server/routes/studio/sessions';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleAuditTrail(request, (await params).id);
}
