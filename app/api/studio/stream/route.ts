import { handleStudioFeed } from '@/server/web/studio-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return handleStudioFeed(request);
}
