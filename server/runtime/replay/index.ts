// Replaying recorded sessions against agent code: decisions as tests (docs/replay.md).
export { diffReplay } from './diff';
export type { CallRef, ReplayDiff } from './diff';
export { notRunResult } from './dry-run-agent';
export { decisionMatcher } from './matching';
export { readRecording } from './recording';
export type { RecordedCall, RecordedDecision, Recording } from './recording';
export { replay } from './replay';
export type { ReplayReport } from './replay';
export { runReplay } from './run-replay';
export { parseRecordingFile, recordingFile } from './recording-file';
export type { RecordingFile } from './recording-file';
