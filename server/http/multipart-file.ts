// The file of a multipart/form-data body (RFC 7578), as a stream: a browser's form sends an
// attachment in a field named `file` (docs/models.md, "Attachments"). Only the part headers are
// held; the file's bytes pass through as they come, with the closing boundary cut off, so the
// body is never collected whole and then copied again. Other fields before it are read past.
import { HttpError } from './errors';

/** The most a part's headers, or the preamble before the first boundary, may be. */
const MAX_HEADER_BYTES = 16 * 1024;

const CRLF = Buffer.from('\r\n');

const unreadable = (why: string) =>
  new HttpError('invalid_request', `The multipart body could not be read (${why}); send the file in a field named "file".`, { field: 'file' });

/** The boundary a multipart Content-Type names, or undefined. */
function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** A disposition parameter: `name="file"`, `filename="a.pdf"` (a browser escapes `"` and newlines as %22, %0D, %0A). */
function parameter(disposition: string, name: string): string | undefined {
  const value = new RegExp(`(?:^|;)\\s*${name}="([^"]*)"`, 'i').exec(disposition)?.[1];
  return value?.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
}

/** Bytes of a stream, read as far as each step needs. */
class Bytes {
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** Reads one more chunk; false once the stream has ended. */
  async more(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.reader.read();
    if (next.done) {
      this.ended = true;
      return false;
    }
    const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    // Only the tail of the last chunk (shorter than a boundary) is ever copied with the next one.
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    return true;
  }

  /** The bytes before `delimiter`, consumed with it; refused past `max` bytes without one. */
  async until(delimiter: Buffer, max: number): Promise<Buffer> {
    while (true) {
      const at = this.buffer.indexOf(delimiter);
      if (at >= 0) return this.take(at, delimiter.length);
      if (this.buffer.length > max + delimiter.length) throw unreadable('a part header is too long');
      if (!(await this.more())) throw unreadable('it ended early');
    }
  }

  /** What comes before `delimiter`, as a stream: as much as can be told apart from it, chunk by chunk. */
  streamUntil(delimiter: Buffer): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        while (true) {
          const at = this.buffer.indexOf(delimiter);
          if (at >= 0) {
            if (at > 0) controller.enqueue(this.take(at, delimiter.length));
            // What follows (the closing boundary, other fields) is not read: the response does not wait for it.
            return controller.close();
          }
          // The tail may be the start of the delimiter: kept until more comes.
          const safe = this.buffer.length - (delimiter.length - 1);
          if (safe > 0) return controller.enqueue(this.take(safe, 0));
          if (!(await this.more())) throw unreadable('it ended in the middle of the file');
        }
      },
      cancel: (reason) => this.reader.cancel(reason),
    });
  }

  /** Discards what comes before `delimiter`, and it. */
  async skipUntil(delimiter: Buffer): Promise<void> {
    while (true) {
      const at = this.buffer.indexOf(delimiter);
      if (at >= 0) return void this.take(at, delimiter.length);
      if (this.buffer.length >= delimiter.length) this.take(this.buffer.length - (delimiter.length - 1), 0);
      if (!(await this.more())) throw unreadable('it ended early');
    }
  }

  /** Two bytes after a boundary: `--` closes the body, anything else starts a part. */
  async next2(): Promise<string> {
    while (this.buffer.length < 2) if (!(await this.more())) throw unreadable('it ended early');
    return this.buffer.subarray(0, 2).toString('latin1');
  }

  /** The first `length` bytes (a view: a chunk is never written to once read), then `skip` more dropped. */
  private take(length: number, skip: number): Buffer {
    const taken = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length + skip);
    return taken;
  }
}

/**
 * The `file` field of a multipart body: its filename and a stream of its bytes. 400
 * invalid_request for a body without a boundary, one that is malformed, or one without the field.
 */
export async function multipartFile(body: ReadableStream<Uint8Array>, contentType: string): Promise<{ filename?: string; body: ReadableStream<Uint8Array> }> {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw unreadable('no boundary');
  const reader = body.getReader();
  const bytes = new Bytes(reader);
  try {
    await bytes.until(Buffer.from(`--${boundary}`), MAX_HEADER_BYTES);
    const delimiter = Buffer.from(`\r\n--${boundary}`);
    while (true) {
      if ((await bytes.next2()) === '--') throw new HttpError('invalid_request', 'Send the file in a multipart field named "file".', { field: 'file' });
      // The rest of the boundary line (a sender may pad it with spaces), then the part's header lines up to a blank one.
      await bytes.until(CRLF, 1024);
      const headers: string[] = [];
      for (let line = await bytes.until(CRLF, MAX_HEADER_BYTES); line.length > 0; line = await bytes.until(CRLF, MAX_HEADER_BYTES)) {
        headers.push(line.toString('utf8'));
        if (headers.length > 64) throw unreadable('a part has too many headers');
      }
      const disposition = headers.find((header) => /^content-disposition:/i.test(header))?.slice('content-disposition:'.length) ?? '';
      const filename = parameter(disposition, 'filename');
      if (parameter(disposition, 'name') === 'file' && filename !== undefined) return { filename, body: bytes.streamUntil(delimiter) };
      await bytes.skipUntil(delimiter);
    }
  } catch (error) {
    void reader.cancel(error).catch(() => undefined);
    throw error;
  }
}
