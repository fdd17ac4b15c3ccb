// The bytes of the attachments a model step sends, read from storage before the step, so turning
// messages into the model's prompt stays a pure function (server/runtime/turn/model-messages.ts;
// docs/models.md, "Attachments"). Only what the step sends is read: the files of the messages it
// is sent, the most recent first, up to STACKBONE_MAX_ATTACHMENT_BYTES_PER_STEP. Older files past
// that are left out by their recorded size — never read — and the model gets a note in their place.
import type { Attachment, ChatMessage } from '../store/messages';
import { attachmentBytesPerStep } from './attachment-limits';
import { getAttachmentStorage } from './storage';

export interface StepFiles {
  /** Attachment id → bytes, for those the step sends that are still stored; a missing one is simply absent. */
  bytes: ReadonlyMap<string, Uint8Array>;
  /** The ids left out: past the step's budget. */
  leftOut: ReadonlySet<string>;
  /** The step's budget, for the note that stands in for a file left out. */
  budget: number;
}

/**
 * Which files a step sends: from the last user message back, each file while the files so far fit
 * in `budget`; from the first that does not, that file and every older one are left out, so
 * what is sent is the recent end of the conversation.
 */
export function chooseStepFiles(messages: ChatMessage[], budget: number): { sent: Attachment[]; leftOut: Set<string> } {
  const sent: Attachment[] = [];
  const chosen = new Set<string>();
  const leftOut = new Set<string>();
  let used = 0;
  let full = false;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    for (const file of message.attachments ?? []) {
      if (chosen.has(file.id) || leftOut.has(file.id)) continue;
      if (!full && used + file.size <= budget) {
        chosen.add(file.id);
        sent.push(file);
        used += file.size;
      } else {
        full = true;
        leftOut.add(file.id);
      }
    }
  }
  return { sent, leftOut };
}

export async function loadAttachmentBytes(messages: ChatMessage[], budget = attachmentBytesPerStep()): Promise<StepFiles> {
  const { sent, leftOut } = chooseStepFiles(messages, budget);
  const bytes = new Map<string, Uint8Array>();
  if (sent.length === 0) return { bytes, leftOut, budget };
  const storage = getAttachmentStorage();
  await Promise.all(
    sent.map(async (file) => {
      const read = await storage.read(file.id);
      if (read) bytes.set(file.id, read);
    }),
  );
  return { bytes, leftOut, budget };
}
