import { handleAttachmentSweep } from '@/server/routes/cron/attachments';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const maxDuration = 300;

export async function GET(request: Request) {
  return handleAttachmentSweep(request);
}
