import { handleStateWrite } from '@/server/routes/agents/state';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }) {
  return handleStateWrite(request, (await params).name);
}
