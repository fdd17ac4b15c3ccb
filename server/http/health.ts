// GET /api/health: readiness for test harnesses and deploy checks. It names the model
// backend, the database kind and the auth mode (never a key or URL) and proves the
// database answers.
import { modelMode } from '../models/resolve';
import { databaseKind, databaseUrl, getStore } from '../store';
import { isOpenDevMode } from './owner';

export async function healthResponse(): Promise<Response> {
  const report = { model: modelMode(), database: databaseKind(databaseUrl()), openDevMode: isOpenDevMode() };
  try {
    await getStore().listSessions('health-check', { limit: 1 });
    return Response.json({ ok: true, ...report }, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    console.error('[stackbone] health check: the database did not answer', error);
    return Response.json({ ok: false, ...report, error: 'database_unavailable' }, { status: 503, headers: { 'Cache-Control': 'no-store' } });
  }
}
