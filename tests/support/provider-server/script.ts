// What a test scripts the provider test server to answer, one model call at a time, in the
// three wire formats alike (each format file says how it writes a reply), and what it keeps of
// each request.
import type { IncomingHttpHeaders } from 'node:http';

interface ScriptedToolCall {
  /** The provider's call id (call_…, toolu_…). */
  id: string;
  name: string;
  input: Record<string, unknown>;
}

interface ScriptedReasoning {
  /** The reasoning text (Anthropic thinking; a Responses reasoning summary). */
  text: string;
  /** Anthropic: the thinking block's signature (signature_delta). */
  signature?: string;
  /** OpenAI Responses: the reasoning item's id (rs_…) and its encrypted_content. */
  itemId?: string;
  encryptedContent?: string;
}

/** A successful streamed answer: reasoning first, then text, then tool calls (in one step, in order). */
export interface ScriptedReply {
  reasoning?: ScriptedReasoning;
  text?: string;
  /** Web pages the text cites (OpenAI Responses: url_citation annotations on the text). */
  citations?: { url: string; title: string }[];
  toolCalls?: ScriptedToolCall[];
  usage?: { inputTokens: number; outputTokens: number; reasoningTokens?: number };
  /** Milliseconds between two events of the stream (default 0: as fast as the socket takes them). */
  eventDelayMs?: number;
  /** Send this many events, then break the connection off: a stream cut mid-way. */
  cutAfter?: number;
  /** Send this many events, then send nothing more and keep the connection open until the client leaves. */
  stallAfter?: number;
}

/** An HTTP error answer instead of a stream: 429 (with retry-after), 500, Anthropic's 529 overloaded. */
export interface ScriptedFailure {
  status: number;
  /** The retry-after header, in seconds, as the providers send it. */
  retryAfter?: string;
  message?: string;
}

export type Scripted = ScriptedReply | ScriptedFailure;

export function isFailure(scripted: Scripted): scripted is ScriptedFailure {
  return typeof (scripted as ScriptedFailure).status === 'number';
}

/** One server-sent event: its `event:` name (Responses and Anthropic name theirs) and `data:` line. */
export interface SseFrame {
  event?: string;
  data: string;
}

/** A wire format the test server speaks. */
export interface ProviderFormat {
  name: 'openai-chat' | 'openai-responses' | 'anthropic';
  path: string;
  /** The events of a scripted reply, in order. `request` is the body the client sent. */
  frames(reply: ScriptedReply, request: Record<string, unknown>): SseFrame[];
  /** The provider's own JSON error body for an HTTP failure. */
  errorBody(status: number, message: string): unknown;
}

/** Text as a model streams it: a word (with its following space) at a time. */
export function textPieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** JSON arguments as a model streams them: a few characters at a time. */
export function jsonPieces(json: string, size = 7): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < json.length; start += size) pieces.push(json.slice(start, start + size));
  return pieces;
}

/** How a request's response ended: sent whole, cut by the script, or closed by the client first. */
export type RequestEnd = 'finished' | 'cut' | 'client-closed';

export interface RecordedRequest {
  format: ProviderFormat['name'] | 'unknown';
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** When it arrived (Date.now()). */
  at: number;
  /** Settles when its response ended, and says how. */
  ended: Promise<RequestEnd>;
}
