// The `requestState` of an MCP `input_required` round (docs/mcp.md, "Two eras"): on protocol
// 2026-07-28 the server keeps nothing between a tool call and its retry, so what the retry needs
// travels through the client — the session, the durable interrupts the round asks about, and
// where the log stood at the pause. The client holds it, so it is sealed: an HMAC (the SDK's
// codec) under a key every instance of a deployment derives from STACKBONE_SECRET, bound to the
// caller it was given to and valid for a day. A changed, expired or another caller's state fails
// the SDK's check before the tool runs (a JSON-RPC -32602 "Invalid or expired requestState").
import { hkdfSync, randomBytes } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { setting } from '../../config';

/** What an `ask_<agent>` round hands its retry. */
export interface AskState {
  /** The session key the turn runs on (the first round may have made it). */
  session: string;
  /** The interrupts this round asks about, by id: their answers come back keyed so. */
  interrupts: string[];
  /** The log's last sequence number at the pause: a decision made elsewhere meanwhile is read from here. */
  seq: number;
}

/** A day: a decision asked of a person may wait that long; past it the retry is refused and asking again asks anew. */
const TTL_SECONDS = 24 * 60 * 60;

// On globalThis: one key per process whichever route bundle asks (the open dev mode's random key).
const held = globalThis as typeof globalThis & {
  __stackboneMcpStateKey?: Uint8Array;
  __stackboneMcpStateCodec?: { said: string; codec: RequestStateCodec<AskState> };
};

/** The codec as the settings say now. */
export function askStateCodec(): RequestStateCodec<AskState> {
  const secret = setting('STACKBONE_SECRET') ?? '';
  if (held.__stackboneMcpStateCodec?.said !== secret) {
    held.__stackboneMcpStateCodec = {
      said: secret,
      codec: createRequestStateCodec<AskState>({
        key: secret ? new Uint8Array(hkdfSync('sha256', secret, 'stackbone', 'mcp request state v1', 32)) : processKey(),
        ttlSeconds: TTL_SECONDS,
        // Bound to the caller (the owner the handler passes as authInfo.clientId): another caller's echo fails.
        bind: (ctx: ServerContext) => ctx.http?.authInfo?.clientId ?? '',
      }),
    };
  }
  return held.__stackboneMcpStateCodec.codec;
}

/** Without STACKBONE_SECRET (open dev mode): a key of this process, so a retry after a restart is refused and the client asks again. */
function processKey(): Uint8Array {
  return (held.__stackboneMcpStateKey ??= new Uint8Array(randomBytes(32)));
}
