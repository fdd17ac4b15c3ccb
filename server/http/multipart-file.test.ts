// The file field of a multipart body, streamed (docs/models.md, "Attachments"): the bytes a
// browser's FormData sends come out exactly, however the body is cut into chunks — a chunk edge
// inside the boundary included — with other fields read past and anything malformed refused.
import { describe, expect, it } from 'vitest';
import { multipartFile } from './multipart-file';

/** A body as the platform's FormData encodes it, and its content type. */
async function formBody(fields: [string, string | Blob, string?][]): Promise<{ bytes: Uint8Array; type: string }> {
  const form = new FormData();
  for (const [name, value, filename] of fields) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, filename);
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { bytes: new Uint8Array(await request.arrayBuffer()), type: request.headers.get('content-type')! };
}

function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

const read = async (body: ReadableStream<Uint8Array>) => Buffer.from(await new Response(body).arrayBuffer());

describe('the file of a multipart body', () => {
  // Bytes that look like a boundary's start and CRLFs, so a parser that cuts at the wrong place shows it.
  const file = Buffer.concat([Buffer.from('%PDF-1.7\r\n--\r\n-'), Buffer.alloc(70_000, 0x2d), Buffer.from('\r\n\r\nend')]);

  it('comes out byte for byte, with its name, whatever the chunks are', async () => {
    const { bytes, type } = await formBody([
      ['note', 'first a field'],
      ['file', new Blob([file]), 'report "Q1".pdf'],
      ['after', 'and one after'],
    ]);
    for (const size of [1, 7, 64, 1000, 65_536, bytes.byteLength]) {
      const found = await multipartFile(chunked(bytes, size), type);
      expect(found.filename).toBe('report "Q1".pdf');
      expect((await read(found.body)).equals(file), `chunks of ${size}`).toBe(true);
    }
  });

  it('keeps an empty file empty and a UTF-8 name whole', async () => {
    const { bytes, type } = await formBody([['file', new Blob([]), 'résumé.pdf']]);
    const found = await multipartFile(chunked(bytes, 5), type);
    expect(found.filename).toBe('résumé.pdf');
    expect((await read(found.body)).byteLength).toBe(0);
  });

  it('refuses a body without the field, without a boundary, cut short, or with a header that never ends', async () => {
    const onlyText = await formBody([['file', 'not a file']]);
    await expect(multipartFile(chunked(onlyText.bytes, 100), onlyText.type)).rejects.toMatchObject({ code: 'invalid_request', details: { field: 'file' } });
    const other = await formBody([['upload', new Blob([file]), 'x.pdf']]);
    await expect(multipartFile(chunked(other.bytes, 100), other.type)).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(multipartFile(chunked(other.bytes, 100), 'multipart/form-data')).rejects.toMatchObject({ code: 'invalid_request' });
    const whole = await formBody([['file', new Blob([file]), 'x.pdf']]);
    const cut = await multipartFile(chunked(whole.bytes.slice(0, 2000), 100), whole.type);
    await expect(read(cut.body)).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('ended in the middle of the file') });
    const endless = `--b\r\nContent-Disposition: form-data; name="file"; filename="${'x'.repeat(40_000)}`;
    await expect(multipartFile(chunked(new Uint8Array(Buffer.from(endless)), 1000), 'multipart/form-data; boundary=b')).rejects.toMatchObject({
      message: expect.stringContaining('too long'),
    });
  });
});
