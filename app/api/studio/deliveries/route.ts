import { handleDeliveryList } from '@/server/routes/studio/deliveries';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return handleDeliveryList(request);
}
