// POST /api/agents/{name}/attachments: a file for the caller's next message (docs/models.md,
// "Attachments"). The body is the file — multipart/form-data with a `file` field (a browser's
// form), or the raw bytes with `?filename=` — streamed into storage once its first bytes say
// its type, within its size limit and its owner's quota, and answered
// `{id, url, mediaType, filename, size}`: the url goes into the message's content part. An owner
// has at most a few uploads under way, and a stalled one is given up (docs/security.md).
// GET /api/agents/{name}/attachments/{id}: the file, to its owner only.
import { getAttachmentStorage, maxImageBytes, maxPdfBytes, saveUpload } from '../../attachments';
import { findAgent } from '../../agents';
import { formatBytes } from '../../contract';
import { errorResponse, HttpError } from '../../http/errors';
import { checkAddressUploads, countAddressUpload } from '../../http/address-uploads';
import { takeUploadSlot, type StreamSlot } from '../../http/limits';
import { multipartFile } from '../../http/multipart-file';
import { uploadBody } from '../../http/upload-body';
import { resolveOwner } from '../../identity/owner';
import { answerOf } from './attachment-answer';
import { jsonResponse } from '../../http/small-answers';

/** What a multipart body adds to its file: the boundaries and the part's headers. */
const MULTIPART_OVERHEAD = 16 * 1024;
/**
 * What a body may carry past that, streamed: other form fields, and a chunk's worth, so that the
 * file's own limit (checked-body.ts, which names the file) is the one a large file meets.
 */
const STREAM_SLACK = 1024 * 1024;

function checkAgent(agentName: string): void {
  if (!findAgent(agentName)) throw new HttpError('not_found', `No agent named "${agentName}".`, { what: 'agent' });
}

/** The file a request carries, as it comes: its bytes and the name its sender gave it. */
async function incomingFile(request: Request): Promise<{ body: ReadableStream<Uint8Array>; filename?: string }> {
  const max = Math.max(maxImageBytes(), maxPdfBytes());
  const tooLarge = () => new HttpError('attachment_too_large', `The file is over ${formatBytes(max)}, the most an attachment may be.`);
  // A length said up front is refused before a byte is read.
  if (Number(request.headers.get('content-length')) > max + MULTIPART_OVERHEAD) throw tooLarge();
  const type = request.headers.get('content-type') ?? '';
  const body = uploadBody(request, max + MULTIPART_OVERHEAD + STREAM_SLACK, tooLarge);
  if (/^multipart\/form-data/i.test(type)) return multipartFile(body, type);
  return { body, filename: new URL(request.url).searchParams.get('filename') ?? undefined };
}

export async function handleUploadAttachment(request: Request, agentName: string): Promise<Response> {
  let slot: StreamSlot | undefined;
  try {
    checkAgent(agentName);
    const ownerId = await resolveOwner(request, { browser: true });
    slot = takeUploadSlot(ownerId);
    await checkAddressUploads(ownerId, request);
    const { body, filename } = await incomingFile(request);
    const attachment = await saveUpload({ ownerId, agent: agentName, body, filename });
    await countAddressUpload(ownerId, request, attachment.size);
    return jsonResponse(attachment, { status: 201 });
  } catch (error) {
    const response = errorResponse(answerOf(error), 'attachment upload');
    // A refused upload's body is not read to its end: the connection is closed after the answer, never reused.
    response.headers.set('Connection', 'close');
    return response;
  } finally {
    slot?.release();
  }
}

/** RFC 6266: an ASCII name for old clients and the UTF-8 one. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * A PDF opened in the browser runs no script of its own against this site, and no site frames a
 * file. next.config.ts leaves this path out of the app's own policy, which would replace this one.
 */
const ATTACHMENT_CSP = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'";

export async function handleGetAttachment(request: Request, agentName: string, id: string): Promise<Response> {
  try {
    checkAgent(agentName);
    const ownerId = await resolveOwner(request, { browser: true });
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
        'Content-Security-Policy': ATTACHMENT_CSP,
        // The owner's own file, never a shared cache's; it never changes under its id.
        'Cache-Control': 'private, max-age=31536000, immutable',
      },
    });
  } catch (error) {
    return errorResponse(error, 'attachment read');
  }
}
