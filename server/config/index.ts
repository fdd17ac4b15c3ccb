// Every environment variable Stackbone reads, in one place (README, "Configuration"): what it is
// for, how its text reads, and its default. .env.example is written from these declarations
// (`npm run env:example`), and no other file of app/, server/, components/, instrumentation.ts or
// next.config.ts reads process.env (eslint.config.mjs). A value is read at the call, so a test that
// changes process.env between cases sees the change; a server given a bad value does not start
// (checkSettings).
import { access } from './access';
import { attachments } from './attachments';
import { background } from './background';
import { database } from './database';
import { host } from './host';
import { limits } from './limits';
import { models } from './models';
import { notify } from './notify';
import { observability } from './observability';
import { openWeb } from './open-web';
import { testOnly } from './test-only';
import { tooling } from './tooling';
import { users } from './users';
import type { Variable } from './variable';

/** Where variables are read from: the process's environment, or one given (a script's, a test's). */
export type Env = Readonly<Record<string, string | undefined>>;

/** In the order .env.example shows them. */
export const GROUPS = [database, models, access, users, limits, openWeb, background, attachments, notify, observability, host, tooling, testOnly] as const;

const appVariables = {
  ...database.variables,
  ...models.variables,
  ...access.variables,
  ...users.variables,
  ...limits.variables,
  ...openWeb.variables,
  ...background.variables,
  ...attachments.variables,
  ...notify.variables,
  ...observability.variables,
  ...host.variables,
  ...tooling.variables,
};

type AppVariables = typeof appVariables;
type TestVariables = typeof testOnly.variables;
type ValueOf<V> = V extends Variable<infer T> ? T : never;

const allVariables: Record<string, Variable<unknown>> = { ...appVariables, ...testOnly.variables };

/** The text the variable holds, trimmed; undefined when unset or empty (a blank line in .env is no setting). */
function rawValue(name: string, env: Env): string | undefined {
  return env[name]?.trim() || undefined;
}

/** The value, else the default: an unreadable one too, as it always read (the start refuses it). */
function read<T>(name: string, variable: Variable<T>, env: Env): T {
  const raw = rawValue(name, env);
  if (raw === undefined) return variable.fallback;
  const parsed = variable.schema.safeParse(raw);
  return parsed.success ? parsed.data : variable.fallback;
}

/** A variable's value now. */
export function setting<N extends keyof AppVariables>(name: N, env: Env = process.env): ValueOf<AppVariables[N]> {
  return read<unknown>(name, appVariables[name], env) as ValueOf<AppVariables[N]>;
}

/** A test-only switch's value now (server/config/test-only.ts): unset on every server people use. */
export function testSetting<N extends keyof TestVariables>(name: N, env: Env = process.env): ValueOf<TestVariables[N]> {
  return read<unknown>(name, testOnly.variables[name], env) as ValueOf<TestVariables[N]>;
}

/** What is wrong with a variable's value, in one line naming it and what it expects; undefined when nothing is. */
export function settingProblem(name: string, env: Env = process.env): string | undefined {
  const variable = allVariables[name];
  const raw = rawValue(name, env);
  if (!variable || raw === undefined || variable.schema.safeParse(raw).success) return undefined;
  const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
  return `${name} must be ${variable.expects}, got "${shown}"`;
}

/** Throws the first variable's problem (the server's start checks: server/identity/start-checks.ts). */
export function checkSettings(env: Env = process.env): void {
  for (const name of Object.keys(allVariables)) {
    const problem = settingProblem(name, env);
    if (problem) throw new Error(problem);
  }
}
