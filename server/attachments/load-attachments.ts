// The bytes of the attachments a conversation's user messages carry, read from storage before
// a model step, so turning messages into the model's prompt stays a pure function
// (server/runtime/turn/model-messages.ts; docs/models.md, "Attachments").
import type { ChatMessage } from '../events';
import { getAttachmentStorage } from './storage';

/** Attachment id → bytes, for every attachment still stored; a missing one is simply absent. */
export async function loadAttachmentBytes(messages: ChatMessage[]): Promise<Map<string, Uint8Array>> {
  const ids = new Set(messages.flatMap((message) => (message.role === 'user' ? (message.attachments ?? []).map((file) => file.id) : [])));
  const storage = getAttachmentStorage();
  const loaded = new Map<string, Uint8Array>();
  await Promise.all(
    [...ids].map(async (id) => {
      const bytes = await storage.read(id);
      if (bytes) loaded.set(id, bytes);
    }),
  );
  return loaded;
}
