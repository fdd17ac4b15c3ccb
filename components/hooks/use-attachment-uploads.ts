'use client';
// The files waiting to go with the next message (docs/models.md, "Attachments"): each is
// uploaded as soon as it is picked, dropped or pasted (POST {url}, multipart), with its progress;
// a file of a type the server refuses is refused here first, by name, and never uploaded. The
// server's refusal (too large, or bytes that are not what the name says) shows on its chip.
import { useCallback, useRef, useState } from 'react';
import { ALLOWED_TYPES_TEXT, ATTACHMENT_TYPES, type Attachment } from '@/server/contract';

export interface PendingFile {
  /** This browser's id for the chip. */
  key: string;
  name: string;
  size: number;
  /** 0 to 1 while uploading. */
  progress: number;
  status: 'uploading' | 'done' | 'error';
  error?: string;
  attachment?: Attachment;
  /** A local preview of an image (an object URL), for its chip. */
  preview?: string;
}

/** What the file input accepts. */
export const ATTACH_ACCEPT = ATTACHMENT_TYPES.join(',');

function upload(url: string, file: File, onProgress: (fraction: number) => void): Promise<Attachment> {
  return new Promise((resolve, reject) => {
    // XMLHttpRequest, not fetch: only it reports an upload's progress.
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.responseType = 'json';
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => {
      const body = request.response as (Attachment & { error?: { message?: string } }) | null;
      if (request.status >= 200 && request.status < 300 && body) resolve(body);
      else reject(new Error(body?.error?.message ?? `${file.name}: the upload failed (HTTP ${request.status}).`));
    };
    request.onerror = () => reject(new Error(`${file.name}: the upload failed (no connection).`));
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}

export function useAttachmentUploads(url: string) {
  const [files, setFiles] = useState<PendingFile[]>([]);
  const counter = useRef(0);
  const update = useCallback((key: string, change: Partial<PendingFile>) => setFiles((all) => all.map((f) => (f.key === key ? { ...f, ...change } : f))), []);

  const add = useCallback(
    (picked: Iterable<File>) => {
      for (const file of picked) {
        const key = `file-${++counter.current}`;
        const allowed = (ATTACHMENT_TYPES as readonly string[]).includes(file.type);
        const preview = allowed && file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined;
        const entry: PendingFile = { key, name: file.name || 'pasted image', size: file.size, progress: 0, status: allowed ? 'uploading' : 'error', preview };
        if (!allowed) entry.error = `${entry.name}: ${ALLOWED_TYPES_TEXT}.`;
        setFiles((all) => [...all, entry]);
        if (!allowed) continue;
        upload(url, file, (progress) => update(key, { progress })).then(
          (attachment) => update(key, { status: 'done', progress: 1, attachment }),
          (error: Error) => update(key, { status: 'error', error: error.message }),
        );
      }
    },
    [url, update],
  );

  const remove = useCallback((key: string) => {
    setFiles((all) => {
      const gone = all.find((f) => f.key === key);
      if (gone?.preview) URL.revokeObjectURL(gone.preview);
      return all.filter((f) => f.key !== key);
    });
  }, []);

  /**
   * Empties the list as its files go out with a message; `restore` puts them back when the
   * message was not taken. (Their previews stay alive for that: a few object URLs per message.)
   */
  const take = useCallback(() => setFiles([]), []);
  const restore = useCallback((taken: PendingFile[]) => setFiles((all) => [...taken, ...all]), []);

  return { files, add, remove, take, restore };
}
