import { handleAgUiRun } from '@/server/wire/agui/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }) {
  return handleAgUiRun(request, (await params).name);
}
