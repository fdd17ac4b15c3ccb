import { after } from 'next/server';
import { handleMcp } from '@/server/routes/mcp/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// A tool call lasts its agent's turn and the person's answer to an elicitation (docs/mcp.md).
export const maxDuration = 300;

export function POST(request: Request) {
  return handleMcp(request, after);
}

export function GET(request: Request) {
  return handleMcp(request, after);
}

export function DELETE(request: Request) {
  return handleMcp(request, after);
}
