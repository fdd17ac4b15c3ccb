// A model provider on localhost for tests: it speaks the streaming wire formats of OpenAI Chat
// Completions, OpenAI Responses and Anthropic Messages (provider-server/*.ts, each citing the
// docs it follows), answers each model call with the next reply a test scripted — a stream, an
// HTTP failure, a stream cut mid-way or one that stalls — and keeps every request it received.
// The app server is pointed at it with OPENAI_BASE_URL / ANTHROPIC_BASE_URL (README, "Models"),
// so the real @ai-sdk providers run end to end without a network.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropic } from './provider-server/anthropic';
import { openAiChat } from './provider-server/openai-chat';
import { openAiResponses } from './provider-server/openai-responses';
import { isFailure, type ProviderFormat, type RecordedRequest, type RequestEnd, type Scripted, type SseFrame } from './provider-server/script';

export type { ScriptedReply } from './provider-server/script';

const FORMATS: ProviderFormat[] = [openAiChat, openAiResponses, anthropic];

export interface ProviderServer {
  /** What OPENAI_BASE_URL and ANTHROPIC_BASE_URL are set to. */
  baseUrl: string;
  /** Queues replies: each model call takes the next one. */
  script(...replies: Scripted[]): void;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Resolves with the nth request (0-based) once it has arrived. */
  request(index: number, timeoutMs?: number): Promise<RecordedRequest>;
  /** Replies scripted and not yet asked for. */
  pending(): number;
  /** Forgets the queue and the requests (between tests). */
  reset(): void;
  close(): Promise<void>;
}

export async function startProviderServer(): Promise<ProviderServer> {
  let queue: Scripted[] = [];
  let requests: RecordedRequest[] = [];
  const arrived = new Set<() => void>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      console.error('[provider-server]', error);
      res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const format = req.method === 'POST' ? FORMATS.find((candidate) => candidate.path === path) : undefined;
    let end!: (how: RequestEnd) => void;
    const ended = new Promise<RequestEnd>((resolve) => (end = resolve));
    let cut = false;
    res.on('close', () => end(cut ? 'cut' : res.writableFinished ? 'finished' : 'client-closed'));
    requests.push({
      format: format?.name ?? 'unknown',
      path,
      headers: req.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      at: Date.now(),
      ended,
    });
    for (const wake of arrived) wake();

    if (!format) return sendJson(res, 404, { error: { message: `The test provider does not serve ${req.method} ${path}.` } });
    const scripted = queue.shift();
    if (!scripted) return sendJson(res, 500, format.errorBody(500, 'The test provider has no scripted reply left.'));
    if (isFailure(scripted)) {
      const headers: Record<string, string> = scripted.retryAfter !== undefined ? { 'retry-after': scripted.retryAfter } : {};
      return sendJson(res, scripted.status, format.errorBody(scripted.status, scripted.message ?? `Scripted failure ${scripted.status}`), headers);
    }
    const frames = format.frames(scripted, requests.at(-1)!.body);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const [index, frame] of frames.entries()) {
      if (index === scripted.cutAfter) {
        // Let what was written reach the client, then break the connection off mid-response.
        await new Promise((resolve) => setTimeout(resolve, 50));
        cut = true;
        res.socket?.destroy();
        return;
      }
      if (index === scripted.stallAfter) return; // the connection stays open until the client leaves
      if (res.destroyed) return;
      await write(res, frame);
      if (scripted.eventDelayMs) await new Promise((resolve) => setTimeout(resolve, scripted.eventDelayMs));
    }
    res.end();
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    script: (...replies) => void queue.push(...replies),
    get requests() {
      return requests;
    },
    async request(index, timeoutMs = 20_000) {
      if (requests[index]) return requests[index];
      return new Promise<RecordedRequest>((resolve, reject) => {
        const timer = setTimeout(() => {
          arrived.delete(wake);
          reject(new Error(`The test provider got ${requests.length} requests, not ${index + 1}, in ${timeoutMs} ms.`));
        }, timeoutMs);
        const wake = () => {
          if (!requests[index]) return;
          clearTimeout(timer);
          arrived.delete(wake);
          resolve(requests[index]);
        };
        arrived.add(wake);
      });
    },
    pending: () => queue.length,
    reset() {
      queue = [];
      requests = [];
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function write(res: ServerResponse, frame: SseFrame): Promise<void> {
  const text = `${frame.event ? `event: ${frame.event}\n` : ''}data: ${frame.data}\n\n`;
  return new Promise((resolve) => {
    if (res.write(text)) return resolve();
    // A client that left never drains: its close ends the wait too.
    res.once('drain', resolve);
    res.once('close', resolve);
  });
}

export { offeredTools, sentConversation, type SentEntry } from './provider-server/sent-conversation';

/**
 * What an app server needs for its openai/* models to go to this server's Chat Completions and
 * nothing else to any provider: the scripted model not forced, the other keys unset
 * (server/models/resolve.ts).
 */
export function openAiChatOnlyEnv(baseUrl: string): Record<string, string> {
  return {
    STACKBONE_MODEL: '',
    OPENAI_API_KEY: 'sk-test-not-real',
    OPENAI_BASE_URL: baseUrl,
    OPENAI_API: 'chat',
    ANTHROPIC_API_KEY: '',
    AI_GATEWAY_API_KEY: '',
    VERCEL_OIDC_TOKEN: '',
  };
}
