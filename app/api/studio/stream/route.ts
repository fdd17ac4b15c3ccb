import { handleStudioFeed } from '@/server/routes/studio/stream';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// The live feed lasts 240 s before the browser reconnects (server/routes/studio/stream.ts); a function must allow it.
export const maxDuration = 300;

export async function GET(request: Request) {
  return handleStudioFeed(request);
}
