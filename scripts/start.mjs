// `npm start`: the production server, `next start` with the flags and preloads of
// scripts/lib/start-command.ts; its own arguments (`-p`, `-H`) pass through.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nextStartArgs } from './lib/start-command.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = [...nextStartArgs(root), ...process.argv.slice(2)];

if (typeof process.execve === 'function') {
  // This process becomes the server: nothing stands between npm (or Docker) and it, so signals
  // and the exit code are the server's own.
  process.execve(process.execPath, [process.execPath, ...args], process.env);
} else {
  // Windows has no execve: the server runs as a child, which signals reach and whose exit is ours.
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code ?? 1)));
}
