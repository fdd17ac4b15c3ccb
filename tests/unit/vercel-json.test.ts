// vercel.json (docs/deploy.md), checked as far as Vercel's own packages allow offline:
// - `functions` against the JSON schema the Vercel CLI validates it with, `functionsSchema` from
//   @vercel/build-utils, with Ajv 6 as the CLI does;
// - `crons`: no installable package ships its schema (it is inlined in the `vercel` CLI, which
//   does not install from this machine's registry), so its documented shape is checked here —
//   {path: "/…", schedule: five cron fields}, nothing else — and every path is a GET route;
// - what Vercel refuses at deploy time and no schema says: a `functions` pattern that matches no
//   route fails the build, and a Hobby project may not schedule a cron more than once a day;
// - that the file agrees with the routes: every route that keeps work going after its response
//   (after()) or streams declares maxDuration, and vercel.json gives it the same bound.
import { existsSync, globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { functionsSchema } from '@vercel/build-utils';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WAKE_TOPIC } from '../../server/wake/vercel-queue-waker';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vercelJson = JSON.parse(readFileSync(path.join(root, 'vercel.json'), 'utf8')) as Record<string, unknown>;
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const routeFiles = globSync('app/**/route.ts', { cwd: root }).sort();
const source = (file: string) => readFileSync(path.join(root, file), 'utf8');

function validateFunctions(functions: unknown) {
  const validate = new Ajv({ allErrors: true }).compile(functionsSchema);
  return { valid: validate(functions) as boolean, errors: validate.errors ?? [] };
}

const cronJob = z.object({ path: z.string().regex(/^\//).max(512), schedule: z.string().min(9).max(256) }).strict();
const FIELD = /^(\*|\d+(-\d+)?(,\d+(-\d+)?)*)(\/\d+)?$/;

/** Whether a five-field cron expression runs at most once a day (what Hobby projects may deploy). */
function atMostDaily(schedule: string): boolean {
  const [minute, hour] = schedule.split(' ');
  return /^\d+$/.test(minute!) && /^\d+$/.test(hour!);
}

/** The URL path a route file serves: app/api/cron/recover/route.ts → /api/cron/recover. */
const urlOf = (file: string) => '/' + path.dirname(path.relative('app', file)).split(path.sep).join('/');

function declaredMaxDuration(file: string): number | undefined {
  const match = /export const maxDuration = (\d+);/.exec(source(file));
  return match ? Number(match[1]) : undefined;
}

/** vercel.json's maxDuration for a route file: the last matching pattern's (no two may disagree). */
function configuredMaxDuration(file: string): number | undefined {
  const functions = vercelJson.functions as Record<string, { maxDuration?: number }>;
  const bounds = Object.entries(functions)
    .filter(([pattern]) => path.matchesGlob(file, pattern))
    .map(([, config]) => config.maxDuration);
  expect(new Set(bounds).size, `patterns matching ${file} disagree`).toBeLessThanOrEqual(1);
  return bounds[0];
}

describe('vercel.json', () => {
  it('its functions validate against the schema Vercel validates them with, and a wrong bound would not', () => {
    const result = validateFunctions(vercelJson.functions);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    // The schema is strict enough to catch what a hand edit gets wrong.
    expect(validateFunctions({ 'app/api/agents/**/route.ts': { maxDuration: 0 } }).valid).toBe(false);
    expect(validateFunctions({ 'app/api/agents/**/route.ts': { maxDuration: '300' } }).valid).toBe(false);
    expect(validateFunctions({ 'app/api/agents/**/route.ts': { maxDurationSeconds: 300 } }).valid).toBe(false);
  });

  it('every functions pattern matches a route (Vercel fails a build on one that matches none)', () => {
    for (const pattern of Object.keys(vercelJson.functions as object)) {
      expect(
        routeFiles.filter((file) => path.matchesGlob(file, pattern)),
        pattern,
      ).not.toEqual([]);
    }
  });

  it('its crons call recovery, timers, the outbox and the attachment sweep, GET routes of this app, at most daily so that a Hobby project deploys', () => {
    const crons = z.array(cronJob).parse(vercelJson.crons);
    expect(crons.map((job) => job.path).sort()).toEqual(['/api/cron/attachments', '/api/cron/outbox', '/api/cron/recover', '/api/cron/timers']);
    for (const job of crons) {
      const fields = job.schedule.split(' ');
      expect(fields, job.schedule).toHaveLength(5);
      for (const field of fields) expect(field, job.schedule).toMatch(FIELD);
      expect(atMostDaily(job.schedule), `${job.schedule}: Hobby projects may run a cron once a day`).toBe(true);
      const file = routeFiles.find((candidate) => urlOf(candidate) === job.path);
      expect(file, job.path).toBeDefined();
      expect(source(file!)).toMatch(/export async function GET\(/);
    }
    expect(atMostDaily('* * * * *')).toBe(false);
  });

  it('every route that works after its response or streams declares maxDuration, and vercel.json gives the same bound', () => {
    const streaming = [
      'app/api/agents/[name]/route.ts',
      'app/api/studio/stream/route.ts',
      'app/api/v1/chat/completions/route.ts',
      'app/api/v1/messages/route.ts',
    ];
    const continuing = routeFiles.filter((file) => /import \{ after \} from 'next\/server'/.test(source(file)));
    expect(continuing.length).toBeGreaterThanOrEqual(10);
    for (const file of [...new Set([...streaming, ...continuing])]) {
      expect(existsSync(path.join(root, file)), file).toBe(true);
      const declared = declaredMaxDuration(file);
      expect(declared, `${file} exports maxDuration`).toBeDefined();
      expect(configuredMaxDuration(file), `vercel.json's bound for ${file}`).toBe(declared);
    }
    // A route that declares a bound of its own is never given another one by vercel.json.
    for (const file of routeFiles) {
      const declared = declaredMaxDuration(file);
      if (declared !== undefined) expect(configuredMaxDuration(file), file).toBe(declared);
    }
  });

  it('builds with the script that refuses SQLite and migrates PostgreSQL before next build', () => {
    expect(vercelJson.framework).toBe('nextjs');
    const command = /^npm run ([\w-]+)$/.exec(String(vercelJson.buildCommand));
    expect(command).not.toBeNull();
    expect(packageJson.scripts[command![1]!]).toBe('node scripts/db.mjs deploy && next build');
  });

  it('pushes the wake topic to POST /api/wake, the route that takes queue deliveries (docs/deploy.md, "Due work")', () => {
    const functions = vercelJson.functions as Record<string, { experimentalTriggers?: { type: string; topic: string }[] }>;
    const consumers = Object.entries(functions).filter(([, config]) => config.experimentalTriggers?.some((trigger) => trigger.type.startsWith('queue/')));
    expect(consumers.map(([file]) => file)).toEqual(['app/api/wake/route.ts']);
    expect(consumers[0]![1].experimentalTriggers).toEqual([expect.objectContaining({ type: 'queue/v2beta', topic: WAKE_TOPIC })]);
    expect(source('app/api/wake/route.ts')).toMatch(/export async function POST/);
  });
});
