import { handleDemoMcp } from '@/examples/demo/mcp/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handleDemoMcp;
export const POST = handleDemoMcp;
export const DELETE = handleDemoMcp;
