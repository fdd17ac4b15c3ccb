// Attachments (docs/models.md, "Attachments"): files a user sends with a message, checked by
// their bytes, stored beside the log (local files or Vercel Blob) and read back for the model.
// Below the runtime: it imports only server/events.ts.
export { sniffType } from './sniff-type';
export { checkAttachment, maxImageBytes, maxPdfBytes } from './attachment-limits';
export { getAttachmentStorage } from './storage';
export { attachmentIdOf, findAttachment, saveAttachment } from './save-attachment';
export { loadAttachmentBytes } from './load-attachments';
