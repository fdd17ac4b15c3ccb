// Reading a JSON request body with a size limit, before anything else happens.
import { HttpError } from './errors';

export const MAX_BODY_BYTES = Number(process.env.STACKBONE_MAX_BODY_BYTES) || 1_000_000;

/** `optional`: an empty body reads as `{}` (an endpoint whose fields are all optional). */
export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES, options: { optional?: boolean } = {}): Promise<unknown> {
  const declared = Number(request.headers.get('content-length'));
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readLimited(request, maxBytes);
  if (!text.trim() && options.optional) return {};
  if (!text.trim()) throw new HttpError(400, 'invalid_json', 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function tooLarge(maxBytes: number) {
  return new HttpError(413, 'body_too_large', `The request body is larger than ${maxBytes} bytes.`);
}
