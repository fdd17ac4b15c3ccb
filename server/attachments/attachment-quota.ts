// How much an owner may keep and upload (docs/security.md, "The open web"; docs/models.md,
// "Attachments"). A browser identity costs a page load on the open web, so each has a quota of
// bytes stored and of uploads an hour. Keys and open dev mode's local owner are operators: no
// quota unless one is set for them.
import { setting } from '../config';

export interface AttachmentQuota {
  /** The bytes its attachments may take in all, sent or not; undefined: no limit. */
  bytes?: number;
  /** Files it may upload in an hour; undefined: no limit. */
  uploadsPerHour?: number;
  /** The variables that set these, named in a refusal. */
  bytesVariable: string;
  uploadsVariable: string;
}

const isBrowserOwner = (ownerId: string) => ownerId.startsWith('browser:');

/**
 * A browser identity: STACKBONE_MAX_ATTACHMENT_BYTES_PER_OWNER (50 MB) and STACKBONE_MAX_UPLOADS_PER_HOUR
 * (20). A key or the local owner: STACKBONE_MAX_ATTACHMENT_BYTES_PER_KEY and
 * STACKBONE_MAX_UPLOADS_PER_HOUR_PER_KEY, unset by default (a backend holding a key speaks for many users).
 */
export function quotaOf(ownerId: string): AttachmentQuota {
  if (isBrowserOwner(ownerId)) {
    return {
      bytes: setting('STACKBONE_MAX_ATTACHMENT_BYTES_PER_OWNER'),
      uploadsPerHour: setting('STACKBONE_MAX_UPLOADS_PER_HOUR'),
      bytesVariable: 'STACKBONE_MAX_ATTACHMENT_BYTES_PER_OWNER',
      uploadsVariable: 'STACKBONE_MAX_UPLOADS_PER_HOUR',
    };
  }
  const bytes = setting('STACKBONE_MAX_ATTACHMENT_BYTES_PER_KEY');
  const uploads = setting('STACKBONE_MAX_UPLOADS_PER_HOUR_PER_KEY');
  return {
    ...(bytes ? { bytes } : {}),
    ...(uploads ? { uploadsPerHour: uploads } : {}),
    bytesVariable: 'STACKBONE_MAX_ATTACHMENT_BYTES_PER_KEY',
    uploadsVariable: 'STACKBONE_MAX_UPLOADS_PER_HOUR_PER_KEY',
  };
}
