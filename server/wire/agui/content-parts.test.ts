// A message's files on the AG-UI wire: out as image/document parts naming the attachment's URL,
// in as the files a client's parts claim (a URL to look up, or bytes to store), anything else
// refused with a code that says why.
import type { Message } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { userMessageContent } from '../../contract';
import { agUiAttachmentClaims } from './content-parts';

const photo = {
  id: 'att_photo_0123456789abcdef',
  url: '/api/agents/helpdesk/attachments/att_photo_0123456789abcdef',
  mediaType: 'image/png',
  filename: 'photo.png',
  size: 70,
};

describe('AG-UI content parts', () => {
  it('gives a message with files back as text then one part per file, and one without as a string', () => {
    expect(userMessageContent('hi', undefined)).toBe('hi');
    const content = userMessageContent('What is this?', [photo, { ...photo, id: 'att_notes', mediaType: 'application/pdf', filename: 'notes.pdf' }]);
    expect(content).toEqual([
      { type: 'text', text: 'What is this?' },
      {
        type: 'image',
        source: { type: 'url', value: photo.url, mimeType: 'image/png' },
        metadata: { filename: 'photo.png', size: 70, attachmentId: photo.id },
      },
      {
        type: 'document',
        source: { type: 'url', value: photo.url, mimeType: 'application/pdf' },
        metadata: { filename: 'notes.pdf', size: 70, attachmentId: 'att_notes' },
      },
    ]);
    // What the server sends is what it reads back: a client echoing its history claims the same file.
    const echoed: Message = { id: 'u1', role: 'user', content: content as Exclude<typeof content, string> };
    expect(agUiAttachmentClaims([echoed])).toEqual(
      new Map([
        [
          'u1',
          [
            { kind: 'url', url: photo.url },
            { kind: 'url', url: photo.url },
          ],
        ],
      ]),
    );
  });

  it('reads inline bytes with their name, and refuses audio, video and file sources', () => {
    const data: Message = {
      id: 'u2',
      role: 'user',
      content: [{ type: 'image', source: { type: 'data', value: 'iVBORw0KGgo=', mimeType: 'image/png' }, metadata: { filename: 'pixel.png' } }],
    };
    expect(agUiAttachmentClaims([data]).get('u2')).toEqual([{ kind: 'data', base64: 'iVBORw0KGgo=', filename: 'pixel.png' }]);
    const audio: Message = { id: 'u3', role: 'user', content: [{ type: 'audio', source: { type: 'url', value: 'https://example.com/a.mp3' } }] };
    expect(() => agUiAttachmentClaims([audio])).toThrow(
      expect.objectContaining({ code: 'attachment_type', message: expect.stringContaining('messages.0.content.0: audio parts') }),
    );
    const file: Message = { id: 'u4', role: 'user', content: [{ type: 'document', source: { type: 'file', value: 'file-123', provider: 'openai' } }] };
    expect(() => agUiAttachmentClaims([file])).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(agUiAttachmentClaims([{ id: 'u5', role: 'user', content: 'plain' }]).size).toBe(0);
  });
});
