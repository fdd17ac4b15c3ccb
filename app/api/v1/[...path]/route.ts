import { handleUnknownEndpoint } from '@/server/routes/v1/not-found';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Unknown endpoints under /api/v1 answer in the API's own error shape, not an HTML page.
export {
  handleUnknownEndpoint as GET,
  handleUnknownEndpoint as POST,
  handleUnknownEndpoint as PUT,
  handleUnknownEndpoint as PATCH,
  handleUnknownEndpoint as DELETE,
};
