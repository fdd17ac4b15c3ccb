// POST /api/agents/{name}/attachments: a file for the caller's next message (docs/models.md,
// "Attachments"). The body is the file — multipart/form-data with a `file` field (a browser's
// form), or the raw bytes with `?filename=` — checked by its bytes (type) and size, stored, and
// answered `{id, url, mediaType, filename, size}`: the url goes into the message's content part.
// GET /api/agents/{name}/attachments/{id}: the file, to its owner only.
import { getAttachmentStorage, maxImageBytes, maxPdfBytes, saveAttachment } from '../../attachments';
import { findAgent } from '../../agents';
import { ALLOWED_TYPES_TEXT, formatBytes } from '../../contract';
import { readBodyBytes } from '../../http/body';
import { errorResponse, HttpError } from '../../http/errors';
import { resolveOwner } from '../../identity/owner';

/** What a multipart body adds to its file: the boundaries and the part's headers. */
const MULTIPART_OVERHEAD = 16 * 1024;

function checkAgent(agentName: string): void {
  if (!findAgent(agentName)) throw new HttpError('not_found', `No agent named "${agentName}".`, { what: 'agent' });
}

async function readFile(request: Request): Promise<{ bytes: Uint8Array; filename?: string }> {
  const max = Math.max(maxImageBytes(), maxPdfBytes());
  const tooLarge = () => new HttpError('attachment_too_large', `The file is over ${formatBytes(max)}, the most an attachment may be.`);
  const type = request.headers.get('content-type') ?? '';
  const body = await readBodyBytes(request, max + MULTIPART_OVERHEAD, tooLarge);
  if (!/^multipart\/form-data/i.test(type)) {
    return { bytes: body, filename: new URL(request.url).searchParams.get('filename') ?? undefined };
  }
  let file: FormDataEntryValue | null;
  try {
    file = (await new Response(Buffer.from(body), { headers: { 'content-type': type } }).formData()).get('file');
  } catch {
    throw new HttpError('invalid_request', 'The multipart body could not be read; send the file in a field named "file".', { field: 'file' });
  }
  if (!file || typeof file === 'string') throw new HttpError('invalid_request', 'Send the file in a multipart field named "file".', { field: 'file' });
  return { bytes: new Uint8Array(await file.arrayBuffer()), filename: file.name };
}

export async function handleUploadAttachment(request: Request, agentName: string): Promise<Response> {
  try {
    checkAgent(agentName);
    const ownerId = resolveOwner(request, { browser: true });
    const { bytes, filename } = await readFile(request);
    if (bytes.byteLength === 0) throw new HttpError('attachment_type', `${filename ?? 'The file'} is empty: ${ALLOWED_TYPES_TEXT}.`);
    const saved = await saveAttachment({ ownerId, agent: agentName, bytes, filename });
    if (!saved.ok) throw new HttpError(saved.code, saved.message);
    return Response.json(saved.attachment, { status: 201 });
  } catch (error) {
    return errorResponse(error, 'attachment upload');
  }
}

/** RFC 6266: an ASCII name for old clients and the UTF-8 one. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export async function handleGetAttachment(request: Request, agentName: string, id: string): Promise<Response> {
  try {
    checkAgent(agentName);
    const ownerId = resolveOwner(request, { browser: true });
    const storage = getAttachmentStorage();
    const record = await storage.record(id);
    const bytes = record?.ownerId === ownerId ? await storage.read(id) : undefined;
    if (!record || !bytes) throw new HttpError('not_found', 'No attachment of that id for this caller.', { what: 'attachment' });
    return new Response(Buffer.from(bytes), {
      headers: {
        'Content-Type': record.mediaType,
        'Content-Length': String(bytes.byteLength),
        'Content-Disposition': contentDisposition(record.filename),
        'X-Content-Type-Options': 'nosniff',
        // A PDF opened in the browser runs no script of its own against this site.
        'Content-Security-Policy': "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
        // The owner's own file, never a shared cache's; it never changes under its id.
        'Cache-Control': 'private, max-age=31536000, immutable',
      },
    });
  } catch (error) {
    return errorResponse(error, 'attachment read');
  }
}
