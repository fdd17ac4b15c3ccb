import { handleCancelResponse } from '@/server/routes/v1/responses/cancel';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleCancelResponse(request, (await params).id);
}
