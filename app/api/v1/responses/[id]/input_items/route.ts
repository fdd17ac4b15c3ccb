import { handleInputItems } from '@/server/routes/v1/responses/input-items';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleInputItems(request, (await params).id);
}
