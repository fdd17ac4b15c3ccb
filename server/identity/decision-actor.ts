// Who decided or stopped, for the audit trail, as the server can tell (docs/security.md, "What
// the server does not trust"). In keyed mode the surface follows the credential: a session in the
// app's cookie is Studio (or the chat of someone signed in), a key in a header is the HTTP API.
// What the client says it is (x-stackbone-client: cli) is kept as a label and names the surface
// only in open dev mode, where every request is the one local owner and a label can pass for
// nobody else.
import type { DecisionActor } from '../store/pauses';
import type { Caller } from './owner';

type Surface = Extract<DecisionActor['source'], 'hitl' | 'cli' | 'studio' | 'server' | 'responses'>;

/** The client's own word for itself: letters, digits, `.`, `_`, `-`; at most 32. */
function clientLabel(request: Request): string | undefined {
  return (
    request.headers
      .get('x-stackbone-client')
      ?.replace(/[^\w.-]/g, '')
      .slice(0, 32) || undefined
  );
}

/** Who a caller is, as a decision records it: its owner id, credential and — a user's — roles (who-may-decide.ts matches them). */
export function callerIdentity(caller: Caller): Pick<DecisionActor, 'credential' | 'roles'> & { ownerId: string } {
  return { ownerId: caller.ownerId, credential: caller.credential, ...(caller.roles ? { roles: caller.roles } : {}) };
}

/** The actor of an out-of-band decision or stop; `fallback` names a keyed request by header (`hitl`, `server` or `responses`). */
export function requestActor(request: Request, caller: Caller, fallback: Surface): DecisionActor {
  const client = clientLabel(request);
  const claimed = client === 'cli' || client === 'studio' ? client : undefined;
  const source: Surface = caller.credential === 'local' ? (claimed ?? fallback) : caller.via === 'cookie' ? 'studio' : fallback;
  return { source, ...callerIdentity(caller), ...(client ? { client } : {}) };
}
