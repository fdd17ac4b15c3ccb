// What one identity or one client address may hold at once (docs/security.md, "The open web"):
// counted in this process's memory, so each instance counts its own.
import { group } from './group';
import { amount, whole } from './variable';

export const openWeb = group('', {
  STACKBONE_MAX_STREAMS_PER_OWNER: whole(
    { description: "Streams one owner (a key, a browser, open dev mode's local owner) may keep open at once, per process; one more is 429 too_many_streams." },
    '',
    32,
    1,
  ),
  STACKBONE_MAX_FAILED_SIGN_INS: whole(
    {
      description: 'Wrong API keys one client address may send (in a header) per window, per process; then 429 too_many_sign_ins until the window has passed.',
    },
    '',
    10,
    1,
  ),
  STACKBONE_SIGN_IN_WINDOW_SECONDS: whole({ description: 'That window, in seconds.' }, 'seconds', 900, 1),
  STACKBONE_MAX_NEW_IDENTITIES_PER_ADDRESS: whole(
    {
      description:
        'The open web (STACKBONE_WEB_ACCESS=open), per client address (docs/security.md, "The open web"): new browser identities an hour, streams and running turns across its identities; paused threads per browser identity.',
    },
    '',
    20,
    1,
  ),
  STACKBONE_MAX_STREAMS_PER_ADDRESS: whole({ description: 'Streams the browser identities of one address hold open together.' }, '', 64, 1),
  STACKBONE_MAX_RUNS_PER_ADDRESS: whole({ description: 'Runs the browser identities of one address have in flight together.' }, '', 32, 1),
  STACKBONE_MAX_PAUSED_THREADS: whole({ description: 'Threads one browser identity may have waiting on a person at once.' }, '', 5, 1),
  STACKBONE_MAX_UPLOADS_IN_FLIGHT: whole(
    { description: 'Uploads one owner may have under way at once; one more is 429 too_many_uploads_in_flight.' },
    '',
    4,
    1,
  ),
  STACKBONE_MAX_UPLOAD_BYTES_PER_ADDRESS: whole(
    {
      description:
        "The bytes of files the browser identities of one address may upload an hour, together (100 MB: two identities' full quotas); past it, 429 too_many_address_uploads.",
    },
    'bytes',
    100 * 1024 * 1024,
    1,
  ),
  STACKBONE_UPLOAD_IDLE_SECONDS: amount({ description: 'An upload that sends nothing this long (seconds) ends with 408 upload_timeout.' }, 'seconds', 15, true),
  STACKBONE_UPLOAD_SECONDS: amount(
    { description: 'An upload that takes longer than this in all (seconds) ends with 408 upload_timeout.' },
    'seconds',
    120,
    true,
  ),
});
