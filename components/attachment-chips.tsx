'use client';
// The files waiting to go with the next message, above the message box: each a chip with its
// thumbnail (an image) or a document icon, its name and size, its upload's progress or the
// reason it was refused, and a button that takes it off (docs/models.md, "Attachments").
import { AlertCircleIcon, FileTextIcon, Loader2Icon, XIcon } from 'lucide-react';
import { formatBytes } from '@/server/contract';
import type { PendingFile } from './hooks/use-attachment-uploads';
import { Button } from './ui/button';
import { cn } from './ui/cn';

export function AttachmentChips({ files, onRemove }: { files: readonly PendingFile[]; onRemove: (key: string) => void }) {
  if (files.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2 px-1" data-testid="composer-attachments" aria-label="Attached files">
      {files.map((file) => (
        <li
          key={file.key}
          className={cn(
            'flex max-w-full items-center gap-2 rounded-lg border bg-card py-1 pr-1 pl-1.5 text-xs shadow-xs',
            file.status === 'error' && 'border-destructive/60',
          )}
          data-testid="attachment-chip"
          data-status={file.status}
        >
          {file.preview ? (
            // A local object URL: next/image has nothing to optimise here.
            // eslint-disable-next-line @next/next/no-img-element
            <img src={file.preview} alt="" className="size-8 shrink-0 rounded object-cover" />
          ) : (
            <FileTextIcon className="size-5 shrink-0 text-muted-foreground" aria-hidden />
          )}
          <span className="min-w-0">
            <span className="block max-w-48 truncate font-medium">{file.name}</span>
            {file.status === 'error' ? (
              <span className="flex items-center gap-1 text-destructive" role="alert" data-testid="attachment-error">
                <AlertCircleIcon className="size-3 shrink-0" aria-hidden /> {file.error}
              </span>
            ) : (
              <span className="flex items-center gap-1 text-muted-foreground">
                {formatBytes(file.size)}
                {file.status === 'uploading' && (
                  <>
                    <Loader2Icon className="size-3 animate-spin" aria-hidden />
                    <span>{Math.round(file.progress * 100)}%</span>
                  </>
                )}
              </span>
            )}
          </span>
          <Button variant="ghost" size="icon-sm" className="size-6" aria-label={`Remove ${file.name}`} onClick={() => onRemove(file.key)}>
            <XIcon aria-hidden />
          </Button>
        </li>
      ))}
    </ul>
  );
}
