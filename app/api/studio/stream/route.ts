import { handleStudioFeed } from '@/server/web/studio-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// The live feed lasts 240 s before the browser reconnects (server/web/studio-routes.ts); a function must allow it.
export const maxDuration = 300;

export async function GET(request: Request) {
  return handleStudioFeed(request);
}
