import { handleModels } from '@/server/routes/v1/models';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ model: string }> }) {
  return handleModels(request, (await params).model);
}
