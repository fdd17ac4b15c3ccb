// The sweep of uploads no message named (docs/models.md, "Attachments"): a file uploaded and never
// sent is deleted from storage once STACKBONE_ATTACHMENT_GRACE_SECONDS (a day) have passed, so
// uploads alone cannot fill the disk or the Blob store. Run by the server's background loop
// (server/boot, STACKBONE_ATTACHMENT_SWEEP_MS) and by GET /api/cron/attachments (docs/deploy.md).
import { forgetSwept, HOUR_MS, markBytesGone, sweepCandidates, takeForSweep } from './attachment-ledger';
import { setting } from '../config';
import { getAttachmentStorage } from './storage';

/** STACKBONE_ATTACHMENT_GRACE_SECONDS (86,400): how long an upload waits for a message to name it. */
function attachmentGraceMs(): number {
  return setting('STACKBONE_ATTACHMENT_GRACE_SECONDS') * 1000;
}

/** Rows looked at per query; a sweep goes on while each batch was full and gave it work. */
const BATCH = 200;
/** A sweep stops after this long: the next one (a minute later, or tomorrow's cron) goes on. */
const MAX_SWEEP_MS = 60_000;

export interface SweepResult {
  /** Attachments deleted from storage. */
  swept: number;
  /** Rows of swept attachments forgotten: past the hour they counted among their owner's uploads. */
  forgotten: number;
}

export async function sweepUnclaimedAttachments(now = new Date()): Promise<SweepResult> {
  const storage = getAttachmentStorage();
  const before = new Date(now.getTime() - attachmentGraceMs());
  const startedAt = Date.now();
  let swept = 0;
  while (Date.now() - startedAt < MAX_SWEEP_MS) {
    const candidates = await sweepCandidates(before, BATCH);
    let done = 0;
    for (const candidate of candidates) {
      // A message may name it until the sweep takes it; one that did keeps it.
      if (!candidate.sweptAt && !(await takeForSweep(candidate.id, now))) continue;
      try {
        await storage.delete(candidate.id);
      } catch (error) {
        // Taken, so no message names it any more; its bytes are deleted by a later sweep.
        console.error(`[stackbone] deleting attachment ${candidate.id} failed`, error);
        continue;
      }
      await markBytesGone(candidate.id);
      done++;
    }
    swept += done;
    if (candidates.length < BATCH || done === 0) break;
  }
  const forgotten = await forgetSwept(new Date(now.getTime() - HOUR_MS));
  return { swept, forgotten };
}
