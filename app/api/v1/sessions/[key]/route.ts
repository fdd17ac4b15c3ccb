import { handleSession } from '@/server/routes/v1/sessions/session';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// OpenAI shape by default; Anthropic shape with ?format=anthropic or an anthropic-version header.
export async function GET(request: Request, { params }: { params: Promise<{ key: string }> }) {
  return handleSession(request, (await params).key);
}
