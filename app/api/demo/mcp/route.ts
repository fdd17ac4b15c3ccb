import { handleDemoMcp } from '@/server/routes/demo/mcp';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handleDemoMcp;
export const POST = handleDemoMcp;
export const DELETE = handleDemoMcp;
