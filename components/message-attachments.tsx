// A sent message's files, in the user's bubble: an image as a thumbnail that opens it, a PDF as a
// chip with its name and size (docs/models.md, "Attachments"). Read from the message's AG-UI
// content parts: an image or document part whose source is the attachment's URL.
import type { UserMessage } from '@ag-ui/client';
import { FileTextIcon } from 'lucide-react';
import { formatBytes } from '@/server/contract';

type Part = Exclude<UserMessage['content'], string>[number];

interface ShownFile {
  kind: 'image' | 'document';
  url: string;
  filename: string;
  size?: number;
}

function fileOf(part: Part): ShownFile | undefined {
  if ((part.type !== 'image' && part.type !== 'document') || part.source.type !== 'url') return undefined;
  const metadata = (part.metadata ?? {}) as { filename?: unknown; size?: unknown };
  const filename = typeof metadata.filename === 'string' ? metadata.filename : part.source.value.split('/').at(-1)!;
  return { kind: part.type, url: part.source.value, filename, ...(typeof metadata.size === 'number' ? { size: metadata.size } : {}) };
}

export function messageFiles(content: UserMessage['content']): ShownFile[] {
  return typeof content === 'string' ? [] : content.flatMap((part) => fileOf(part) ?? []);
}

export function MessageAttachments({ files }: { files: ShownFile[] }) {
  if (files.length === 0) return null;
  return (
    <div className="mb-1 flex flex-wrap justify-end gap-2" data-testid="message-attachments">
      {files.map((file) =>
        file.kind === 'image' ? (
          <a key={file.url} href={file.url} target="_blank" rel="noreferrer" title={file.filename}>
            {/* The owner's own file through an authenticated route: next/image would fetch it without the cookie's say. */}
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src={file.url} alt={file.filename} className="max-h-40 max-w-56 rounded-lg object-cover" data-testid="attachment-thumbnail" />
          </a>
        ) : (
          <a
            key={file.url}
            href={file.url}
            target="_blank"
            rel="noreferrer"
            className="flex items-center gap-2 rounded-lg bg-background/20 px-2 py-1 text-xs underline-offset-2 hover:underline"
            data-testid="attachment-document"
          >
            <FileTextIcon className="size-4 shrink-0" aria-hidden />
            <span className="max-w-48 truncate">{file.filename}</span>
            {file.size !== undefined && <span className="opacity-80">{formatBytes(file.size)}</span>}
          </a>
        ),
      )}
    </div>
  );
}
