import { handleJwks } from '@/server/routes/jwks';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET() {
  return handleJwks();
}
