#!/usr/bin/env node
// stackbone: the command line for a Stackbone app. Lists the pending human-in-the-loop
// decisions and approves, rejects or cancels them through the server's /api/hitl API, and stops
// a session's run through POST /api/v1/sessions/{threadId}/stop; exports decisions and sessions
// and replays a session against the current agent code (docs/replay.md); and checks any AG-UI
// agent's human-in-the-loop round trip (`conformance`, docs/conformance.md).
// Plain Node 22; only `conformance` imports packages (@ag-ui/client, @ag-ui/core); see docs/cli.md.
import { parseArgs } from 'node:util';
import { formatCall, formatDecision, formatStop, formatTable, terminalSafe } from './lib/format.mjs';
import { createClient, DEFAULT_URL, ServerError, UnreachableError } from './lib/http.mjs';
import { findPending, listAll } from './lib/inbox-pages.mjs';
import { formatReplay } from './lib/replay-format.mjs';
import { confirm } from './lib/prompt.mjs';
import { formatClaims, loadKeySet, newKey, readSource, receiptsIn, verifyOne } from './lib/receipt.mjs';
import {
  CONFORMANCE_HELP,
  HITL_COMMAND_HELP,
  HITL_HELP,
  MAIN_HELP,
  RECEIPT_HELP,
  SESSION_COMMAND_HELP,
  SESSION_HELP,
  TOP_HELP,
  USERS_COMMAND_HELP,
  USERS_HELP,
} from './lib/help.mjs';
import { VERSION } from './lib/version.mjs';

/** `replay` exits `different` when the replay differs from the recording; `conformance` `nonconformant` when a check fails. */
const EXIT = { ok: 0, failed: 1, different: 1, nonconformant: 1, usage: 2 };

/** The commands without a group, with their extra options. */
const TOP = { export: ['decisions', 'session'], replay: ['against'] };

/** The options of `receipt verify` (`receipt key` takes none). */
const RECEIPT_OPTIONS = ['url', 'json', 'help', 'jwks', 'args'];

/** Options every command accepts. */
const COMMON = ['url', 'api-key', 'json', 'help'];
/**
 * The command groups: each command with its extra options, and the help texts.
 * @type {Record<string, { commands: Record<string, string[]>, help: string, commandHelp: Record<string, string> }>}
 */
const GROUPS = {
  hitl: {
    commands: {
      list: ['filter', 'all', 'cursor'],
      approve: ['yes', 'edit', 'payload'],
      reject: ['yes', 'reason', 'payload'],
      cancel: ['yes'],
    },
    help: HITL_HELP,
    commandHelp: HITL_COMMAND_HELP,
  },
  session: {
    commands: { stop: ['run'] },
    help: SESSION_HELP,
    commandHelp: SESSION_COMMAND_HELP,
  },
  users: {
    commands: { list: [], role: ['remove'] },
    help: USERS_HELP,
    commandHelp: USERS_COMMAND_HELP,
  },
};
const QUESTIONS = { approve: 'Approve? [y/N] ', reject: 'Reject? [y/N] ', cancel: 'Cancel this interrupt? [y/N] ' };

/** @type {import('node:util').ParseArgsConfig['options']} */
const OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  yes: { type: 'boolean', short: 'y' },
  edit: { type: 'string' },
  payload: { type: 'string' },
  reason: { type: 'string' },
  run: { type: 'string' },
  decisions: { type: 'boolean' },
  session: { type: 'string' },
  against: { type: 'string' },
  filter: { type: 'string' },
  all: { type: 'boolean' },
  cursor: { type: 'string' },
  remove: { type: 'boolean' },
  prompt: { type: 'string' },
  header: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  reconnect: { type: 'string' },
  'approve-payload': { type: 'string' },
  'reject-payload': { type: 'string' },
  jwks: { type: 'string' },
  args: { type: 'string' },
};

/** The options of `conformance` (its agent URL is its argument, so no --url). */
const CONFORMANCE_OPTIONS = ['api-key', 'json', 'help', 'prompt', 'header', 'timeout', 'reconnect', 'approve-payload', 'reject-payload'];
/** How `conformance` reopens the paused thread (docs/conformance.md, "Reconnecting"). */
const RECONNECT_PATHS = ['auto', 'reopen', 'rejoin'];
/** How long `conformance` waits for one run, in seconds, unless --timeout says otherwise. */
const CONFORMANCE_TIMEOUT_S = 60;

/** Whose interrupts `hitl list --filter` lists (docs/hitl.md, "Paging the inbox"). */
const FILTERS = ['mine', 'key-holders', 'all'];

class UsageError extends Error {
  /** @param {string} message @param {string} [helpFor] the command whose help to point at */
  constructor(message, helpFor = '') {
    super(message);
    this.helpFor = helpFor;
  }
}

/** Something that was not done, for a reason other than the server (e.g. "no" at the prompt). */
class NotDone extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // Keep node's first sentence ("Unknown option '--frob'."), not its advice about '--'.
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.replace(/ To specify a positional argument.*$/s, ''));
  }
  const { values, positionals } = parsed;
  const [group, command, ...rest] = positionals;

  if (values.version) return print(`${VERSION}\n`);
  if (!group || group === 'help') {
    if (values.help || group === 'help') return print(MAIN_HELP);
    process.stderr.write(MAIN_HELP);
    return EXIT.usage;
  }
  if (group === 'conformance')
    return conformance(
      [command, ...rest].filter((word) => word !== undefined),
      values,
    );
  if (group === 'receipt') return receipt(command, rest, values);
  if (Object.hasOwn(TOP, group))
    return topCommand(
      /** @type {'export' | 'replay'} */ (group),
      [command, ...rest].filter((word) => word !== undefined),
      values,
    );
  if (!Object.hasOwn(GROUPS, group)) {
    const owner = Object.keys(GROUPS).find((g) => Object.hasOwn(GROUPS[g].commands, group));
    const hint = owner ? ` Did you mean "stackbone ${owner} ${group}"?` : '';
    throw new UsageError(`Unknown command "${group}".${hint}`);
  }
  const spec = GROUPS[group];
  if (!command) {
    if (values.help) return print(spec.help);
    process.stderr.write(spec.help);
    return EXIT.usage;
  }
  if (!Object.hasOwn(spec.commands, command)) {
    throw new UsageError(`Unknown command "${group} ${command}": use ${oneOf(Object.keys(spec.commands))}.`, group);
  }
  if (values.help) return print(spec.commandHelp[command]);

  const allowed = new Set([...COMMON, ...spec.commands[command]]);
  for (const option of Object.keys(values)) {
    if (!allowed.has(option)) throw new UsageError(`Option --${option} is not valid for "${group} ${command}".`, `${group} ${command}`);
  }

  const client = createClient({ url: serverUrl(values.url), apiKey: apiKey(values['api-key']), version: VERSION });
  const json = Boolean(values.json);

  if (group === 'session') return sessionStop(client, rest, values, json);
  if (group === 'users') return users(client, command, rest, values, json);

  const name = /** @type {'list' | 'approve' | 'reject' | 'cancel'} */ (command);

  if (name === 'list') return hitlList(client, rest, values, json);

  const [id, ...extra] = rest;
  if (!id) throw new UsageError(`Missing the interrupt id: stackbone hitl ${name} <id>.`, `hitl ${name}`);
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}" (pass one interrupt id; quote a --reason with spaces).`, `hitl ${name}`);

  /** @type {Record<string, unknown>} */
  const body = {};
  if (name === 'approve' && values.edit !== undefined) body.editedArgs = parseJsonOption('edit', values.edit, name);
  if (name !== 'cancel' && values.payload !== undefined) body.payload = parseJsonOption('payload', values.payload, name);
  if (name === 'reject' && values.reason !== undefined) body.reason = values.reason;

  if (!values.yes) {
    if (!process.stdin.isTTY) {
      throw new UsageError(`stdin is not a terminal, so there is no one to ask: pass --yes to ${name} ${id} without confirmation.`, `hitl ${name}`);
    }
    const interrupt = await findPending(client, id);
    if (!interrupt) throw new NotDone('not_found', `No pending interrupt ${id} (it may have been decided or expired, or belong to another API key).`);
    process.stderr.write(terminalSafe(formatCall(interrupt, { edit: body.editedArgs, payload: body.payload, reason: body.reason })));
    if (!(await confirm(QUESTIONS[name], { input: process.stdin, output: process.stderr }))) {
      throw new NotDone('not_confirmed', 'Not confirmed; nothing was sent.');
    }
  }

  const result = await client.decide(id, name, body);
  return print(json ? toJson(result) : formatDecision(result));
}

/**
 * stackbone receipt verify <file|-> [--jwks <url|file>] [--args <json|@file>] | receipt key.
 * @param {string | undefined} command
 * @param {string[]} rest
 * @param {Record<string, any>} values
 */
async function receipt(command, rest, values) {
  if (!command || values.help) {
    if (values.help || command === 'help') return print(RECEIPT_HELP);
    process.stderr.write(RECEIPT_HELP);
    return EXIT.usage;
  }
  if (command === 'key') {
    if (rest.length > 0 || Object.keys(values).length > 0) throw new UsageError('"receipt key" takes no arguments or options.', 'receipt');
    return print(`${newKey()}\n`);
  }
  if (command !== 'verify') throw new UsageError(`Unknown command "receipt ${command}": use verify or key.`, 'receipt');
  for (const option of Object.keys(values)) {
    if (!RECEIPT_OPTIONS.includes(option)) throw new UsageError(`Option --${option} is not valid for "receipt verify".`, 'receipt');
  }
  const [source, ...extra] = rest;
  if (!source) throw new UsageError('Missing the receipt: stackbone receipt verify <file> (or - for stdin).', 'receipt');
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}" (pass one file).`, 'receipt');
  const args =
    values.args === undefined ? undefined : parseJson('args', values.args.startsWith('@') ? await readSource(values.args.slice(1)) : values.args, 'receipt');
  const receipts = receiptsIn(await readSource(source));
  if (receipts.length === 0)
    throw new NotDone('no_receipt', `No receipt in ${source === '-' ? 'stdin' : source}: expected a compact JWS, {"receipts": […]} or the decision export.`);
  const keySet = await loadKeySet(values.jwks ?? `${serverUrl(values.url)}/.well-known/jwks.json`);
  const results = [];
  for (const token of receipts) results.push(await verifyOne(token, keySet, args));
  if (values.json) print(toJson({ receipts: results }));
  else print(results.map(formatClaims).join('\n'));
  return results.every((result) => result.ok) ? EXIT.ok : EXIT.failed;
}

/**
 * stackbone hitl list [--filter <which>] [--all | --cursor <cursor>]: one page, or every page with --all.
 * @param {ReturnType<typeof createClient>} client
 * @param {string[]} rest the positionals after "hitl list"
 * @param {Record<string, any>} values
 * @param {boolean} json
 */
async function hitlList(client, rest, values, json) {
  if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}": "hitl list" takes no arguments.`, 'hitl list');
  const filter = values.filter;
  if (filter !== undefined && !FILTERS.includes(filter)) throw new UsageError(`--filter must be ${oneOf(FILTERS)}.`, 'hitl list');
  if (values.all && values.cursor !== undefined) throw new UsageError('Pass --all or --cursor <cursor>, not both.', 'hitl list');
  if (values.cursor !== undefined && !values.cursor) throw new UsageError('--cursor needs the nextCursor of a page: --cursor <cursor>.', 'hitl list');
  const result = values.all ? await listAll(client, filter) : await client.list({ filter, cursor: values.cursor });
  if (json) return print(toJson(result));
  const next = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
  return print(
    formatTable(result.interrupts ?? [], {
      width: process.stdout.columns || 120,
      more: next && `stackbone hitl list${filter ? ` --filter ${filter}` : ''} --cursor ${next}`,
    }),
  );
}

/**
 * stackbone session stop <threadId> [--run <runId>]: exit 0 when the run was stopped and when
 * nothing was running (the result says which); the server's refusals exit 1 as usual.
 * @param {ReturnType<typeof createClient>} client
 * @param {string[]} rest the positionals after "session stop"
 * @param {{ run?: string | boolean | (string | boolean)[] }} values
 * @param {boolean} json
 */
async function sessionStop(client, rest, values, json) {
  const [threadId, ...extra] = rest;
  if (!threadId) throw new UsageError('Missing the thread id: stackbone session stop <threadId>.', 'session stop');
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}" (pass one thread id; name a run with --run <runId>).`, 'session stop');
  /** @type {{ runId?: string }} */
  const body = {};
  if (values.run !== undefined) {
    if (typeof values.run !== 'string' || !values.run) throw new UsageError('--run needs a run id: --run <runId>.', 'session stop');
    body.runId = values.run;
  }
  const result = await client.stop(threadId, body);
  return print(json ? toJson(result) : formatStop(result));
}

/**
 * stackbone users list | users role <email> <role> [--remove].
 * @param {ReturnType<typeof createClient>} client
 * @param {string} command
 * @param {string[]} rest the positionals after the command
 * @param {{ remove?: boolean }} values
 * @param {boolean} json
 */
async function users(client, command, rest, values, json) {
  if (command === 'list') {
    if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}": "users list" takes no arguments.`, 'users list');
    const result = await client.team();
    if (json) return print(toJson(result));
    const members = /** @type {{ email: string, name: string, roles: string[] }[]} */ (result.members ?? []);
    if (members.length === 0) return print('Nobody has signed up yet.\n');
    const width = Math.max(5, ...members.map((member) => member.email.length));
    const lines = members.map((member) => `${member.email.padEnd(width)}  ${member.roles.length ? member.roles.join(', ') : '(no roles)'}`);
    return print(terminalSafe(`${'EMAIL'.padEnd(width)}  ROLES\n${lines.join('\n')}\n`));
  }
  const [email, role, ...extra] = rest;
  if (!email || !role) throw new UsageError('Name the user and the role: stackbone users role <email> <role> [--remove].', 'users role');
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}" (one address, one role).`, 'users role');
  const result = await client.setRole({ email, role, ...(values.remove ? { remove: true } : {}) });
  if (json) return print(toJson(result));
  const roles = /** @type {string[]} */ (result.roles ?? []);
  return print(terminalSafe(`${result.email}: ${roles.length ? roles.join(', ') : 'no roles'}\n`));
}

/**
 * stackbone export --decisions | --session <key>, and stackbone replay <session> [--against <agent>].
 * @param {'export' | 'replay'} name
 * @param {string[]} args the positionals after the command
 * @param {Record<string, any>} values
 */
async function topCommand(name, args, values) {
  if (values.help) return print(TOP_HELP[name]);
  const allowed = new Set([...COMMON, ...TOP[name]]);
  for (const option of Object.keys(values)) {
    if (!allowed.has(option)) throw new UsageError(`Option --${option} is not valid for "${name}".`, name);
  }
  const client = createClient({ url: serverUrl(values.url), apiKey: apiKey(values['api-key']), version: VERSION });
  const json = Boolean(values.json);
  if (name === 'export') {
    if (args.length > 0) throw new UsageError(`Unexpected argument "${args[0]}": name the session with --session <key>.`, 'export');
    if (Boolean(values.decisions) === (values.session !== undefined)) throw new UsageError('Pass one of --decisions or --session <key>.', 'export');
    if (values.session !== undefined) {
      if (!values.session) throw new UsageError('--session needs a session key: --session <key>.', 'export');
      if (json) throw new UsageError('A recording is JSONL already: --json applies to --decisions.', 'export');
      return print(await client.recording(values.session));
    }
    const text = await client.decisions();
    if (!json) return print(text);
    const decisions = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    return print(toJson({ decisions }));
  }
  const [session, ...extra] = args;
  if (!session) throw new UsageError('Missing the session: stackbone replay <session>.', 'replay');
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}" (pass one session key).`, 'replay');
  if (values.against !== undefined && !values.against) throw new UsageError('--against needs an agent name: --against <agent>.', 'replay');
  const report = await client.replay(session, values.against ? { against: values.against } : {});
  print(json ? toJson(report) : formatReplay(report));
  return report.identical ? EXIT.ok : EXIT.different;
}

/**
 * stackbone conformance <agent-url> --prompt "<message>": the checks' lines as they end (or, with
 * --json, the report); exit 0 when every check passed, 1 otherwise.
 * @param {string[]} args the positionals after "conformance"
 * @param {Record<string, any>} values
 */
async function conformance(args, values) {
  if (values.help) return print(CONFORMANCE_HELP);
  for (const option of Object.keys(values)) {
    if (!CONFORMANCE_OPTIONS.includes(option)) {
      const hint = option === 'url' ? ' (the agent URL is its argument)' : '';
      throw new UsageError(`Option --${option} is not valid for "conformance"${hint}.`, 'conformance');
    }
  }
  const [agentUrl, ...extra] = args;
  if (!agentUrl) throw new UsageError('Missing the agent URL: stackbone conformance <agent-url> --prompt "<message>".', 'conformance');
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}" (pass one agent URL; quote the --prompt).`, 'conformance');
  let url;
  try {
    url = new URL(agentUrl);
  } catch {
    throw new UsageError(`Invalid agent URL "${agentUrl}": expected e.g. http://localhost:3000/api/agents/support.`, 'conformance');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`Invalid agent URL "${agentUrl}": use http:// or https://.`, 'conformance');
  if (!values.prompt) throw new UsageError('Missing --prompt "<message>": a message that makes the agent call a tool that needs approval.', 'conformance');
  const timeout = values.timeout === undefined ? CONFORMANCE_TIMEOUT_S : Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0) throw new UsageError(`--timeout must be a number of seconds above 0, not "${values.timeout}".`, 'conformance');
  const reconnect = values.reconnect ?? 'auto';
  if (!RECONNECT_PATHS.includes(reconnect)) throw new UsageError(`--reconnect must be ${oneOf(RECONNECT_PATHS)}.`, 'conformance');

  /** @type {Record<string, string>} */
  const headers = {};
  for (const header of values.header ?? []) {
    const colon = header.indexOf(':');
    const name = colon > 0 ? header.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header must be "Name: value", not "${header}".`, 'conformance');
    headers[name.toLowerCase()] = header.slice(colon + 1).trim();
  }
  // Only --api-key, never STACKBONE_API_KEY: the agent may be another stack's, and the key is this app's.
  if (values['api-key'] && headers.authorization === undefined) headers.authorization = `Bearer ${values['api-key']}`;

  const { runConformance } = await import('./lib/conformance.mjs');
  const { formatCheckResult, formatConformanceHeader, formatConformanceSummary } = await import('./lib/conformance-format.mjs');
  const options = {
    target: { url: agentUrl, headers, timeoutMs: timeout * 1000 },
    prompt: values.prompt,
    reconnect,
    approvePayload: values['approve-payload'] === undefined ? { approved: true } : parseJson('approve-payload', values['approve-payload'], 'conformance'),
    rejectPayload:
      values['reject-payload'] === undefined
        ? { approved: false, reason: 'Rejected by the conformance check.' }
        : parseJson('reject-payload', values['reject-payload'], 'conformance'),
  };
  const json = Boolean(values.json);
  if (!json) print(formatConformanceHeader({ agentUrl, prompt: values.prompt }));
  const report = await runConformance(options, json ? {} : { onResult: (result) => print(formatCheckResult(result)) });
  print(json ? toJson(report) : formatConformanceSummary(report));
  return report.ok ? EXIT.ok : EXIT.nonconformant;
}

/** "a, b or c". @param {string[]} words */
function oneOf(words) {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** @param {string} text */
function print(text) {
  process.stdout.write(terminalSafe(text));
  return EXIT.ok;
}

/** @param {unknown} value */
function toJson(value) {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** @param {string | undefined} flag */
function serverUrl(flag) {
  const raw = flag || process.env.STACKBONE_URL || DEFAULT_URL;
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`Invalid server URL "${raw}" (from ${flag ? '--url' : 'STACKBONE_URL'}): expected e.g. ${DEFAULT_URL}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`Invalid server URL "${raw}": use http:// or https://.`);
  return raw;
}

/** @param {string | undefined} flag */
function apiKey(flag) {
  return flag || process.env.STACKBONE_API_KEY || undefined;
}

/** @param {string} option @param {string} text @param {string} command */
function parseJsonOption(option, text, command) {
  return parseJson(option, text, `hitl ${command}`);
}

/** @param {string} option @param {string} text @param {string} helpFor */
function parseJson(option, text, helpFor) {
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new UsageError(`--${option} must be valid JSON (${detail}). Quote it for the shell, e.g. --${option} '{"amount": 10}'.`, helpFor);
  }
}

/**
 * Reports a failure on stderr (and, with --json, as {"error": …} on stdout); returns the exit code.
 * @param {unknown} error @param {boolean} json
 */
function report(error, json) {
  /** @param {unknown} body */
  const out = (body) => json && process.stdout.write(toJson(body));
  if (error instanceof UsageError) {
    out({ error: { code: 'usage_error', message: error.message } });
    process.stderr.write(`stackbone: ${error.message}\nRun 'stackbone ${error.helpFor ? `${error.helpFor} ` : ''}--help' for usage.\n`);
    return EXIT.usage;
  }
  if (error instanceof ServerError) {
    out(error.body);
    process.stderr.write(terminalSafe(`stackbone: the server refused (${error.status} ${error.code}): ${error.message}\n`));
    return EXIT.failed;
  }
  if (error instanceof UnreachableError) {
    out({ error: { code: error.code, message: error.message, url: error.url } });
    process.stderr.write(`stackbone: ${error.message}\n`);
    return EXIT.failed;
  }
  if (error instanceof NotDone) {
    out({ error: { code: error.code, message: error.message } });
    process.stderr.write(`stackbone: ${error.message}\n`);
    return EXIT.failed;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  out({ error: { code: 'internal_error', message: String(error instanceof Error ? error.message : error) } });
  process.stderr.write(`stackbone: unexpected error: ${message}\n`);
  return EXIT.failed;
}

const argv = process.argv.slice(2);
try {
  process.exitCode = await main(argv);
} catch (error) {
  // --json is honoured for errors even when the arguments did not parse.
  const json = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length).includes('--json');
  process.exitCode = report(error, json);
}
