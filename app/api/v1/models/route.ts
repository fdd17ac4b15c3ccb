import { handleModels } from '@/server/routes/v1/models';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The models are the agents; Anthropic clients (anthropic-version header) get the Models API shape.
export function GET(request: Request) {
  return handleModels(request);
}
