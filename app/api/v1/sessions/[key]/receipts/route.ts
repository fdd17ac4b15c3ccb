import { handleSessionReceipts } from '@/server/routes/v1/sessions/receipts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ key: string }> }) {
  return handleSessionReceipts(request, (await params).key);
}
