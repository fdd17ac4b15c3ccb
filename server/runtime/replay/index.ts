// Replaying recorded sessions against agent code: decisions as tests (docs/replay.md).
export { parseRecordingFile, recordingFile } from './recording-file';
export { replay } from './replay';
export type { ReplayReport } from './replay';
