import { handleRetrieveResponse } from '@/server/routes/v1/responses/retrieve';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// A resumed stream follows its run to the end.
export const maxDuration = 300;

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleRetrieveResponse(request, (await params).id);
}
