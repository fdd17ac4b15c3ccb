import { after } from 'next/server';
import { decide } from '@/server/routes/hitl/decide';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// The continuation runs after the response, within this bound (docs/deploy.md).
export const maxDuration = 300;

export async function POST(request: Request, { params }: { params: Promise<{ id: string; action: string }> }) {
  const { id, action } = await params;
  const { response, continuation } = await decide(request, id, action);
  // The continuation runs on the server after the response (docs/hitl.md, "Out of band").
  if (continuation) after(continuation);
  return response;
}
