import { after } from 'next/server';
import { decideLink } from '@/server/routes/links/decide';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// The continuation runs after the response, within this bound (docs/deploy.md).
export const maxDuration = 300;

export async function POST(request: Request) {
  const { response, continuation } = await decideLink(request);
  // The run the decision continues goes on after the response (docs/hitl.md, "Out of band").
  if (continuation) after(continuation);
  return response;
}
