import { handleAuditTrail } from '@/server/web/studio-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleAuditTrail(request, (await params).id);
}
