// The attachments a message names by URL (docs/internals/wires.md, "Content parts"): each must be one of
// its sender's, and naming it keeps it — the sweep takes only uploads no message named
// (sweep.ts). The row is marked before storage is read, and the sweep takes a row before it
// deletes the bytes, so an upload named while the sweep takes it is either kept or refused,
// never named and then deleted.
import type { Attachment } from '../store/messages';
import { claimAttachments } from './attachment-ledger';
import { attachmentIdOf, findAttachment } from './save-attachment';

/** URL → the owner's attachment it names, or undefined: not the owner's, not ours, or swept. */
export async function nameAttachments(ownerId: string, agent: string, urls: string[]): Promise<Map<string, Attachment | undefined>> {
  const ids = [...new Set(urls.flatMap((url) => attachmentIdOf(url) ?? []))];
  const swept = await claimAttachments(ownerId, ids);
  const named = new Map<string, Attachment | undefined>();
  await Promise.all(
    [...new Set(urls)].map(async (url) => {
      const id = attachmentIdOf(url);
      named.set(url, id && !swept.has(id) ? await findAttachment(ownerId, agent, url) : undefined);
    }),
  );
  return named;
}
