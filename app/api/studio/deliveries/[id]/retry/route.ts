import { handleDeliveryRetry } from '@/server/routes/studio/deliveries';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleDeliveryRetry(request, (await params).id);
}
