// GET /api/health: readiness for test harnesses, deploy checks and load balancers. Anyone gets
// {ok} and the status code, which prove the database answers. The details — the model
// backend, the database kind and the auth mode, never a key or URL — go to whoever could use
// the API anyway: everyone in open dev mode, a key holder in keyed mode. A stranger is not told
// whether the server is open.
import { errorStatus, type ErrorCode } from '../error-codes';
import { modelMode } from '../models/resolve';
import { databaseKind, databaseUrl, getStore } from '../store';
import { HttpError } from '../http/errors';
import { isOpenDevMode, resolveOwner } from '../identity/owner';
import { jsonResponse } from '../http/small-answers';

export async function healthResponse(request: Request): Promise<Response> {
  const report = (await mayReadDetails(request)) ? { model: modelMode(), database: databaseKind(databaseUrl()), openDevMode: isOpenDevMode() } : {};
  try {
    // A read by key on the store's hot path (server/store/hot-path-sql.ts): it proves the database
    // answers at the least cost, as a balancer asks often and a busy server answers it too.
    await getStore().getSession('health-check');
    return jsonResponse({ ok: true, ...report }, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    console.error('[stackbone] health check: the database did not answer', error);
    return jsonResponse(
      { ok: false, ...report, error: 'database_unavailable' satisfies ErrorCode },
      { status: errorStatus('database_unavailable'), headers: { 'Cache-Control': 'no-store' } },
    );
  }
}

async function mayReadDetails(request: Request): Promise<boolean> {
  try {
    await resolveOwner(request);
    return true;
  } catch (error) {
    // 401: a stranger in keyed mode; 403: open dev mode asked from off this machine.
    if (error instanceof HttpError && (error.status === 401 || error.status === 403)) return false;
    throw error;
  }
}
