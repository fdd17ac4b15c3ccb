// Reading a JSON request body with a size limit, before anything else happens. Every body the
// server reads is JSON and says so: a `text/plain` or form POST is what another site's page can
// send without asking the browser first (no CORS preflight), so it is refused — as is a
// browser request from another site that carries no API key, with a body or without one
// (same-origin.ts; docs/internals/wires.md, "Auth").
import { HttpError } from './errors';
import { checkSameOrigin } from './same-origin';
import { setting } from '../config';

/**
 * `optional`: an empty body reads as `{}` (an endpoint whose fields are all optional), with or
 * without a content type — after the same-origin rule, which holds for a bodiless request too.
 */
export async function readJsonBody(request: Request, maxBytes = setting('STACKBONE_MAX_BODY_BYTES'), options: { optional?: boolean } = {}): Promise<unknown> {
  checkSameOrigin(request);
  const type = request.headers.get('content-type');
  const json = type !== null && JSON_TYPE.test(type);
  const unsupported = () =>
    new HttpError('unsupported_media_type', `Send the body as JSON with Content-Type: application/json${type ? ` (not "${type.slice(0, 100)}")` : ''}.`);
  if (!json && !options.optional) throw unsupported();
  const declared = Number(request.headers.get('content-length'));
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readLimited(request, maxBytes);
  if (!text.trim() && options.optional) return {};
  if (!json) throw unsupported();
  if (!text.trim()) throw new HttpError('invalid_json', 'The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  checkShape(value);
  return value;
}

/** How deep a body may nest, and how long one array may be: deeper or longer is no request a client makes. */
const MAX_JSON_DEPTH = 64;
const MAX_ARRAY_LENGTH = 10_000;

/**
 * Refuses a body that nests deeper than MAX_JSON_DEPTH or holds an array longer than
 * MAX_ARRAY_LENGTH, before anything walks it recursively (JSON.stringify of a 200,000-deep value
 * overflows the stack). Iterative, so the check itself cannot overflow.
 */
function checkShape(root: unknown): void {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) throw new HttpError('json_too_deep', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
    const children = Array.isArray(value) ? value : Object.values(value);
    if (Array.isArray(value) && value.length > MAX_ARRAY_LENGTH)
      throw new HttpError('json_array_too_long', `An array in the request body has more than ${MAX_ARRAY_LENGTH} items.`);
    for (const child of children) stack.push([child, depth + 1]);
  }
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes, () => tooLarge(maxBytes)));
}

/** The body's bytes, refused with `tooLargeError()` as soon as more than `maxBytes` have come. */
async function readBodyBytes(request: Request, maxBytes: number, tooLargeError: () => HttpError): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function tooLarge(maxBytes: number) {
  return new HttpError('body_too_large', `The request body is larger than ${maxBytes} bytes.`);
}
