// The CLI's version: the app's package.json, which it ships in.
import { readFileSync } from 'node:fs';

export const VERSION = readVersion();

function readVersion() {
  try {
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
