#!/usr/bin/env node
// `npm run agent:new -- <name>` (README, "Add an agent"): writes server/agents/<name>.ts — an agent
// with a plain tool, a tool that waits for a person's approval, and offline phrases for both, so it
// works with no model key — and lists it in server/agents/index.ts, where the home page finds it.
// It refuses a bad name and an agent that exists, changing nothing; `--root <dir>` writes under
// another copy of the app (a test's).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Lower-case letters, digits and single dashes, starting with a letter: a URL path and a file name. */
const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const MAX_NAME = 40;

/** "help-desk" → "helpDesk": the registry's name for its import. */
const identifierOf = (name) => name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());

/** "help-desk" → "Help desk", as defineDeepAgent's default displayName (server/authoring/readable-name.ts) reads it. */
const wordsOf = (name) => name.charAt(0).toUpperCase() + name.slice(1).replaceAll('-', ' ');

/** The agent file: a task list kept in the session's shared state, readable by anyone, added to with an approval. */
function agentSource(name) {
  const words = wordsOf(name);
  return `// The ${words} agent, written by \`npm run agent:new -- ${name}\` (README, "Add an agent"): a task
// list kept in the session's shared state. listTasks runs at once; addTask waits for a person's
// approval. With no model key, the built-in scripted model answers the offline phrases below.
import { z } from 'zod';
import { defineDeepAgent, handlerContext, tool, type JsonObject } from '../agent-kit';

interface Task {
  id: string;
  title: string;
  /** handlerContext().idempotencyKey of the call that added it: a call carried out again adds nothing. */
  addedBy: string;
}

/** The session's tasks: mutating them publishes the change to every open client. */
const tasksOf = (state: JsonObject): Task[] => (state.tasks ??= []) as Task[];

const listTasks = tool({
  title: 'List the tasks',
  description: 'List the tasks of this conversation.',
  inputSchema: z.object({}),
  execute: async () => {
    const tasks = tasksOf(handlerContext().state);
    const summary = tasks.length
      ? \`\${tasks.length} task\${tasks.length === 1 ? '' : 's'}: \${tasks.map((t) => \`\${t.id} \${t.title}\`).join('; ')}.\`
      : 'No tasks yet.';
    return { tasks, summary };
  },
});

const addTask = tool({
  title: 'Add a task',
  description: 'Add a task to the list. Needs a human approval.',
  inputSchema: z.object({ title: z.string().min(1).max(200).meta({ title: 'Task', description: 'What is to be done' }) }),
  execute: async ({ title }) => {
    const { state, idempotencyKey } = handlerContext();
    const tasks = tasksOf(state);
    let task = tasks.find((t) => t.addedBy === idempotencyKey);
    if (!task) {
      task = { id: \`T\${tasks.length + 1}\`, title, addedBy: idempotencyKey };
      tasks.push(task);
    }
    return { added: task, summary: \`Added task \${task.id}: \${task.title}.\` };
  },
});

export default defineDeepAgent({
  name: '${name}',
  description: 'Keeps a task list: lists it, and adds to it once a person approves.',
  model: 'openai/gpt-4o-mini',
  instructions: 'You keep a task list. List it with listTasks; add to it with addTask, which a person approves. Be brief.',
  tools: { listTasks, addTask },
  toolApproval: {
    listTasks: 'approved',
    addTask: { policy: 'user-approval', allowEdit: true, describe: (input) => \`Add the task "\${input.title}"\` },
  },
  initialState: { tasks: [] },
  // What the offline scripted model understands (server/authoring/offline-phrases.ts); the examples are the
  // chips of an empty chat too. Anchored (^…$) so a match costs time linear in the message.
  offline: {
    phrases: [
      { call: 'addTask', example: 'Add a task: send the March invoices', pattern: /^add\\s+(?:a\\s+)?task:?\\s+(.+)$/i, input: (m) => ({ title: m[1] }) },
      { call: 'listTasks', example: 'List my tasks', pattern: /^(?:list|show)\\s+(?:my\\s+|the\\s+)?tasks$/i, input: () => ({}) },
    ],
  },
});
`;
}

/** The registry with the agent's import in alphabetical place and its entry after the app's listed agents, before the demo's; undefined when its shape is not the one expected. */
function registered(registry, name) {
  const identifier = identifierOf(name);
  const lines = registry.split('\n');
  const imports = lines.flatMap((line, index) => (/^import \w+ from '\.\/[a-z0-9-]+';$/.test(line) ? [index] : []));
  const list = lines.findIndex((line) => /^export const agents\b.*= \[$/.test(line));
  // With no agent of this folder listed yet (the demo's come from examples/), after the last import.
  const lastImport = lines.findLastIndex((line, index) => index < list && /^import .* from '[^']+';/.test(line));
  if (lastImport < 0 || list < 0) return undefined;
  let entry = list + 1;
  while (/^ {2}\w+,$/.test(lines[entry] ?? '')) entry++;
  const after = imports.find((index) => lines[index].slice(lines[index].indexOf("'")) > `'./${name}';`);
  lines.splice(entry, 0, `  ${identifier},`);
  lines.splice(after ?? (imports.length > 0 ? imports.at(-1) : lastImport) + 1, 0, `import ${identifier} from './${name}';`);
  return lines.join('\n');
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? path.resolve(args.splice(rootAt, 2)[1] ?? '') : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...rest] = args;
if (!name || rest.length > 0) fail('Usage: npm run agent:new -- <name>   (e.g. billing: lower-case letters, digits and dashes)');
if (!NAME.test(name) || name.length > MAX_NAME)
  fail(
    `"${name}" is not an agent name: use 1 to ${MAX_NAME} lower-case letters, digits and single dashes, starting with a letter (e.g. billing, help-desk). Nothing changed.`,
  );

const agentsDir = path.join(root, 'server', 'agents');
const file = path.join(agentsDir, `${name}.ts`);
const registryFile = path.join(agentsDir, 'index.ts');
const shown = (target) => path.relative(root, target);
if (!existsSync(registryFile)) fail(`No ${shown(registryFile)} under ${root}: run this in the app's folder (or give --root <dir>).`);
const registry = readFileSync(registryFile, 'utf8');
if (existsSync(file) || registry.includes(`from './${name}';`)) fail(`The agent "${name}" exists already (${shown(file)}). Nothing changed.`);
// An example's agent of that name (examples/<example>/agents/) is listed too: two would share the name.
const examplesDir = path.join(root, 'examples');
const example = existsSync(examplesDir)
  ? readdirSync(examplesDir)
      .map((folder) => path.join(examplesDir, folder, 'agents', `${name}.ts`))
      .find((candidate) => existsSync(candidate))
  : undefined;
if (example) fail(`The agent "${name}" exists already (${shown(example)}). Nothing changed.`);
if (new RegExp(`^import ${identifierOf(name)}\\b`, 'm').test(registry))
  fail(`${shown(registryFile)} already imports a "${identifierOf(name)}": choose another name. Nothing changed.`);
const updated = registered(registry, name);
if (!updated)
  fail(
    `${shown(registryFile)} does not look as expected (an "export const agents = [" list): add the agent yourself (README, "Add an agent"). Nothing changed.`,
  );

writeFileSync(file, agentSource(name));
writeFileSync(registryFile, updated);
console.log(`Wrote ${shown(file)}: the agent "${name}" with listTasks (runs at once) and addTask (waits for your approval), and offline phrases for both.
Listed it in ${shown(registryFile)}.
Open it: npm run dev, then http://127.0.0.1:3000/agents/${name} — with no model key, try "Add a task: send the March invoices", approve it, then "List my tasks".`);
