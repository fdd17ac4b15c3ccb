// The checks of `stackbone conformance`, in the order they run (docs/conformance.md). Each names
// the checks it needs to have passed (it is skipped otherwise): the first pauses the thread the
// next five work on; "reject" pauses a thread of its own.
import { checkApprove, checkReject, checkResumeReplay } from './conformance-decision-checks.mjs';
import { checkInterrupt, checkReconnect } from './conformance-pause-checks.mjs';
import { checkMessageWhilePaused, checkUnknownInterrupt } from './conformance-refusal-checks.mjs';

/**
 * @typedef {import('./conformance-verdict.mjs').Probe} Probe
 * @typedef {import('./conformance-verdict.mjs').Findings} Findings
 * @typedef {import('./conformance-verdict.mjs').ConformanceOptions} ConformanceOptions
 * @typedef {import('./conformance-verdict.mjs').Verdict} Verdict
 * @typedef {{
 *   id: string,
 *   title: string,
 *   needs: string[],
 *   run: (probe: Probe, findings: Findings, options: ConformanceOptions) => Promise<Verdict>,
 * }} Check
 */

/** @type {Check[]} */
export const CHECKS = [
  {
    id: 'interrupt',
    title: 'The prompt ends its run with an interrupt outcome, before the gated tool runs',
    needs: [],
    run: checkInterrupt,
  },
  {
    id: 'reconnect',
    title: 'Reopening the thread shows the same pending interrupt, twice in a row',
    needs: ['interrupt'],
    run: checkReconnect,
  },
  {
    id: 'message-while-paused',
    title: 'A new message on the paused thread is refused with RUN_ERROR on the stream',
    needs: ['interrupt'],
    run: checkMessageWhilePaused,
  },
  {
    id: 'unknown-interrupt',
    title: 'A resume for an unknown interrupt id is refused with RUN_ERROR on the stream',
    needs: ['interrupt'],
    run: checkUnknownInterrupt,
  },
  {
    id: 'approve',
    title: "Approving resumes the run; the tool's result appears exactly once",
    needs: ['interrupt'],
    run: checkApprove,
  },
  {
    id: 'resume-replay',
    title: 'Resending the same resume does not run the tool again',
    needs: ['approve'],
    run: checkResumeReplay,
  },
  {
    id: 'reject',
    title: 'Rejecting (fresh thread): the tool never runs, the run finishes, the model is told',
    needs: [],
    run: checkReject,
  },
];
