// A test knob for the crash matrix (docs/internals/architecture.md, "Crash points"): with
// STACKBONE_CRASH_AT naming a point, the process kills itself with a real SIGKILL when it gets
// there — no cleanup, no finally blocks, no flushed buffers, exactly as a power cut or an OOM
// kill would leave the database. Unset (always, outside tests), a call is one env read.
import { testSetting } from '../../config';

/** The places a run can die at that recovery must carry on from. */
export type CrashPointName =
  /** A model step is streaming text (a pass per delta; a delegated task's too); nothing of it is in the log yet. */
  | 'model-stream'
  /** An assistant step with tool calls is in the log; no call has been gated or started. */
  | 'tool-call-stored'
  /** A tool is running: its synchronous work is done, the runtime has not seen it return. */
  | 'tool-running'
  /** A decision is in the log with the run it started; its tool has not started. */
  | 'decision-stored'
  /** The model step after a tool result is streaming text (a pass per delta); the result is in the log, the reply not. */
  | 'continuation-stream'
  /** A due timer's messages are in its session and their run started; the timer is not marked fired. */
  | 'timer-firing';

// Counted per process; kept on globalThis because Next may bundle this module more than once
// (the instrumentation's loops and the route handlers), and the count is the process's.
const counts: Map<CrashPointName, number> = ((globalThis as { stackboneCrashCounts?: Map<CrashPointName, number> }).stackboneCrashCounts ??= new Map());

/**
 * Dies here when STACKBONE_CRASH_AT names this point, on its STACKBONE_CRASH_AFTER-th pass
 * (default 1: the first). Both are read at call time.
 */
export function crashPoint(name: CrashPointName): void {
  if (testSetting('STACKBONE_CRASH_AT') !== name) return;
  const passes = (counts.get(name) ?? 0) + 1;
  counts.set(name, passes);
  if (passes < testSetting('STACKBONE_CRASH_AFTER')) return;
  console.error(`[stackbone] STACKBONE_CRASH_AT=${name}: killing this process (pass ${passes}).`);
  process.kill(process.pid, 'SIGKILL');
}
