// The sealed requestState of an MCP input_required round (request-state.ts): what one deployment
// mints for one caller comes back to it, and nothing else does — another caller's echo, a changed
// one, one past its day, one a server with another STACKBONE_SECRET minted.
import type { ServerContext } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { askStateCodec, type AskState } from './request-state';

const STATE: AskState = { session: 'mcp-1', interrupts: ['int_1'], seq: 7 };
/** A handler context as the MCP handler builds it: the caller's owner id is the authInfo's clientId (handler.ts). */
const asCaller = (ownerId: string) => ({ http: { authInfo: { token: '', clientId: ownerId, scopes: [] } } }) as unknown as ServerContext;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('the requestState of an ask', () => {
  it('comes back to the caller it was minted for, on any instance of the deployment; another caller’s echo is refused', async () => {
    vi.stubEnv('STACKBONE_SECRET', 'request-state-secret-0123456789abcdef');
    const minted = await askStateCodec().mint(STATE, asCaller('key:alice'));
    expect(await askStateCodec().verify(minted, asCaller('key:alice'))).toEqual(STATE);
    await expect(askStateCodec().verify(minted, asCaller('key:bob'))).rejects.toThrow();
  });

  it('is refused when changed, after its day, or under another secret', async () => {
    vi.stubEnv('STACKBONE_SECRET', 'request-state-secret-0123456789abcdef');
    const minted = await askStateCodec().mint(STATE, asCaller('key:alice'));
    const [payload, mac] = [minted.slice(0, minted.lastIndexOf('.')), minted.slice(minted.lastIndexOf('.') + 1)];
    await expect(askStateCodec().verify(`${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`, asCaller('key:alice'))).rejects.toThrow();

    vi.useFakeTimers({ now: Date.now() + 25 * 60 * 60_000 });
    await expect(askStateCodec().verify(minted, asCaller('key:alice'))).rejects.toThrow();
    vi.useRealTimers();

    vi.stubEnv('STACKBONE_SECRET', 'another-deployments-secret-0123456789ab');
    await expect(askStateCodec().verify(minted, asCaller('key:alice'))).rejects.toThrow();
  });
});
