// A user message's attachments reach the model as file parts with their bytes, loaded before the
// pure translation; without bytes (a tool's view of the history, a file gone from storage, or one
// past the step's budget) a line of text names the file instead.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../store/messages';
import { toModelMessages } from './model-messages';

const photo = {
  id: 'att_photo_0123456789abcdef',
  url: '/api/agents/helpdesk/attachments/att_photo_0123456789abcdef',
  mediaType: 'image/png',
  filename: 'photo.png',
  size: 3,
};
const pdf = {
  id: 'att_notes_0123456789abcdef',
  url: '/api/agents/helpdesk/attachments/att_notes_0123456789abcdef',
  mediaType: 'application/pdf',
  filename: 'notes.pdf',
  size: 5,
};
const messages: ChatMessage[] = [{ id: 'u1', role: 'user', content: 'What is this?', attachments: [photo, pdf] }];

describe('toModelMessages: attachments', () => {
  it('sends each attachment as a file part with its bytes, type and name, after the text', () => {
    const png = new Uint8Array([1, 2, 3]);
    const notes = new Uint8Array([4, 5, 6, 7, 8]);
    const bytes = new Map([
      [photo.id, png],
      [pdf.id, notes],
    ]);
    expect(toModelMessages(messages, { bytes, leftOut: new Set(), budget: 1024 })).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'file', data: png, mediaType: 'image/png', filename: 'photo.png' },
          { type: 'file', data: notes, mediaType: 'application/pdf', filename: 'notes.pdf' },
        ],
      },
    ]);
  });

  it('names a file whose bytes are gone, and names every file where no bytes were loaded', () => {
    expect(toModelMessages(messages, { bytes: new Map(), leftOut: new Set(), budget: 1024 })[0]!.content).toContainEqual({
      type: 'text',
      text: '[Attachment photo.png is no longer stored.]',
    });
    expect(toModelMessages(messages)[0]!.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'text', text: '[Attached: photo.png (image/png)]' },
      { type: 'text', text: '[Attached: notes.pdf (application/pdf)]' },
    ]);
  });

  it('puts a note in the place of a file past the step’s budget, saying what it was and what the budget is', () => {
    const notes = new Uint8Array([4, 5, 6, 7, 8]);
    const content = toModelMessages(messages, { bytes: new Map([[pdf.id, notes]]), leftOut: new Set([photo.id]), budget: 5 })[0]!.content;
    expect(content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'text', text: '[Attachment photo.png (image/png, 3 B) was left out: a step carries at most 5 B of files, the most recent first.]' },
      { type: 'file', data: notes, mediaType: 'application/pdf', filename: 'notes.pdf' },
    ]);
  });

  it('keeps a message without attachments a plain string', () => {
    expect(toModelMessages([{ id: 'u2', role: 'user', content: 'hi' }])).toEqual([{ role: 'user', content: 'hi' }]);
  });
});
