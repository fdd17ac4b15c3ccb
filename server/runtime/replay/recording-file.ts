// The recording file (docs/replay.md, "Recording files"): JSONL, a header line naming the agent
// and the session, then the session's stored events, one per line, as the log holds them.
// `stackbone export --session <key>` writes one; a replay and expectReplay read it.
import { z } from 'zod';
import type { StoredEvent } from '../../store/events';
import { describeIssue } from '../common';

const RECORDING_VERSION = 1;

interface RecordingFile {
  agent: string;
  session: string;
  events: StoredEvent[];
}

const header = z.object({ stackboneRecording: z.literal(RECORDING_VERSION), agent: z.string().min(1), session: z.string().min(1) });
const storedEvent = z.object({ seq: z.number().int().positive(), at: z.string(), event: z.object({ type: z.string() }).passthrough() });

export function recordingFile(file: RecordingFile): string {
  const lines = [{ stackboneRecording: RECORDING_VERSION, agent: file.agent, session: file.session }, ...file.events];
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** Reads a recording file; throws an Error naming the line that is not one. */
export function parseRecordingFile(text: string): RecordingFile {
  const lines = text.split('\n').filter((line) => line.trim());
  const parse = (line: string, index: number) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new Error(`Recording line ${index + 1} is not JSON.`);
    }
  };
  const head = header.safeParse(lines.length ? parse(lines[0]!, 0) : undefined);
  if (!head.success) throw new Error(`Not a Stackbone recording: line 1 must be its header (${describeIssue(head.error, 'header')}).`);
  const events = lines.slice(1).map((line, index) => {
    const parsed = storedEvent.safeParse(parse(line, index + 1));
    if (!parsed.success) throw new Error(`Recording line ${index + 2} is not a stored event: ${describeIssue(parsed.error, 'event')}.`);
    return parsed.data as unknown as StoredEvent;
  });
  return { agent: head.data.agent, session: head.data.session, events };
}
