// Attachments (docs/models.md, "Attachments"): files a user sends with a message, checked by
// their bytes as they stream in, counted against their owner's quota, stored beside the log
// (local files or Vercel Blob), swept when no message names them, and read back for the model
// within a step's budget. Below the runtime: it imports server/store/events.ts, the contract and the
// app's database (server/store/app-database.ts).
export { sniffType } from './sniff-type';
export { maxAttachmentsPerMessage, maxImageBytes, maxPdfBytes } from './attachment-limits';
export { AttachmentRefusal } from './attachment-refusal';
export { getAttachmentStorage } from './storage';
export { findAttachment, saveInlineAttachment, saveUpload } from './save-attachment';
export { nameAttachments } from './named-attachments';
export { loadAttachmentBytes, type StepFiles } from './load-attachments';
export { sweepUnclaimedAttachments } from './sweep';
