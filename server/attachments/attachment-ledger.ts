// The Attachment table (prisma/schema.prisma): one row per stored file, beside its bytes in
// attachment storage, that counts it against its owner's quota and says whether a message named
// it (docs/models.md, "Attachments"). A row is made before the bytes stream in and taken out again
// when the upload is refused, so a refusal leaves nothing; the count is made after the insert, so
// two uploads at once each see the other (both may be refused at the edge, never both let through).
import { withAppDatabase } from '../store/app-database';
import { isUniqueViolation } from '../store/prisma-errors';
import { formatBytes } from '../contract';
import type { AttachmentQuota } from './attachment-quota';
import { AttachmentRefusal } from './attachment-refusal';

/** The window uploads are counted in. */
export const HOUR_MS = 60 * 60 * 1000;

/** What a reservation leaves: whether this call made the row, and the bytes the owner has left (undefined: no limit). */
export interface Reservation {
  reserved: boolean;
  room?: number;
}

/**
 * Makes `id`'s row for `ownerId` if its quota allows one more upload this hour and it has bytes
 * left: 429 too_many_uploads or 413 attachment_storage_full otherwise, with no row left behind.
 * `claimed`: a message names it already (bytes sent inline). An id that has a row already (the
 * same inline bytes again) is `reserved: false` and counts nothing.
 */
export function reserveAttachment(ownerId: string, id: string, quota: AttachmentQuota, options: { claimed?: boolean; now?: Date } = {}): Promise<Reservation> {
  const now = options.now ?? new Date();
  return withAppDatabase(async (db) => {
    try {
      await db.attachment.create({ data: { id, ownerId, createdAt: now, claimedAt: options.claimed ? now : null } });
    } catch (error) {
      if (isUniqueViolation(error)) return { reserved: false };
      throw error;
    }
    try {
      if (quota.uploadsPerHour !== undefined) {
        const since = new Date(now.getTime() - HOUR_MS);
        const recent = await db.attachment.count({ where: { ownerId, createdAt: { gt: since } } });
        if (recent > quota.uploadsPerHour) {
          const oldest = await db.attachment.findFirst({ where: { ownerId, createdAt: { gt: since } }, orderBy: { createdAt: 'asc' } });
          const retryAfter = Math.max(1, Math.ceil(((oldest?.createdAt.getTime() ?? now.getTime()) + HOUR_MS - now.getTime()) / 1000));
          throw new AttachmentRefusal(
            'too_many_uploads',
            `This identity uploaded ${quota.uploadsPerHour} files in the last hour, the most it may (${quota.uploadsVariable}): try again in ${retryAfter} s.`,
            retryAfter,
          );
        }
      }
      if (quota.bytes === undefined) return { reserved: true };
      const used = (await db.attachment.aggregate({ where: { ownerId }, _sum: { size: true } }))._sum.size ?? 0;
      if (used >= quota.bytes) throw storageFull(quota);
      return { reserved: true, room: quota.bytes - used };
    } catch (error) {
      await db.attachment.deleteMany({ where: { id } });
      throw error;
    }
  });
}

export function storageFull(quota: AttachmentQuota): AttachmentRefusal {
  return new AttachmentRefusal(
    'attachment_storage_full',
    `This identity's attachments would be over ${formatBytes(quota.bytes ?? 0)}, the most it may keep (${quota.bytesVariable}).`,
  );
}

/**
 * Records the size of `id`'s bytes, now stored; 413 attachment_storage_full when the owner's
 * attachments are over its quota with them (another upload finished meanwhile): the caller takes
 * the bytes and the row out again.
 */
export function settleAttachment(id: string, ownerId: string, size: number, quota: AttachmentQuota): Promise<void> {
  return withAppDatabase(async (db) => {
    await db.attachment.update({ where: { id }, data: { size } });
    if (quota.bytes === undefined) return;
    const used = (await db.attachment.aggregate({ where: { ownerId }, _sum: { size: true } }))._sum.size ?? 0;
    if (used > quota.bytes) throw storageFull(quota);
  });
}

/** Takes `id`'s row out: its upload was refused or failed, so it counts for nothing. */
export function discardAttachmentRow(id: string): Promise<void> {
  return withAppDatabase(async (db) => void (await db.attachment.deleteMany({ where: { id } })));
}

/**
 * Marks the owner's attachments `ids` named by a message, so the sweep leaves them; answers those
 * of them the sweep has taken already (no message may name them). An id with no row is one
 * stored before rows were kept: named, and never swept.
 */
export function claimAttachments(ownerId: string, ids: string[], now = new Date()): Promise<Set<string>> {
  if (ids.length === 0) return Promise.resolve(new Set());
  return withAppDatabase(async (db) => {
    await db.attachment.updateMany({ where: { id: { in: ids }, ownerId, claimedAt: null, sweptAt: null }, data: { claimedAt: now } });
    const swept = await db.attachment.findMany({ where: { id: { in: ids }, sweptAt: { not: null } }, select: { id: true } });
    return new Set(swept.map((row) => row.id));
  });
}

/**
 * The attachments to sweep: never named and made before `before`, and those taken by an earlier
 * sweep whose bytes are still to delete (a deletion that failed); at most `limit`, oldest first.
 */
export function sweepCandidates(before: Date, limit: number): Promise<{ id: string; sweptAt: Date | null }[]> {
  return withAppDatabase((db) =>
    db.attachment.findMany({
      where: {
        OR: [
          { claimedAt: null, sweptAt: null, createdAt: { lt: before } },
          { sweptAt: { not: null }, size: { gt: 0 } },
        ],
      },
      orderBy: { createdAt: 'asc' },
      take: limit,
      select: { id: true, sweptAt: true },
    }),
  );
}

/** Takes `id` for the sweep unless a message named it meanwhile: true when it is the sweep's. */
export function takeForSweep(id: string, now: Date): Promise<boolean> {
  return withAppDatabase(async (db) => (await db.attachment.updateMany({ where: { id, claimedAt: null, sweptAt: null }, data: { sweptAt: now } })).count === 1);
}

/** The swept attachment's bytes are gone: it counts no bytes any more. */
export function markBytesGone(id: string): Promise<void> {
  return withAppDatabase(async (db) => void (await db.attachment.updateMany({ where: { id }, data: { size: 0 } })));
}

/** Forgets swept attachments made before `before`: past the hour, they count among no upload window. */
export function forgetSwept(before: Date): Promise<number> {
  return withAppDatabase(async (db) => (await db.attachment.deleteMany({ where: { sweptAt: { not: null }, size: 0, createdAt: { lt: before } } })).count);
}
