// docs/internals/benchmarks.md is written by `npm run bench -- --publish` (bench/lib/report.ts): the
// figures, then the method of bench/lib/method.ts. An edit made to the page alone would be lost at
// the next publish; this says so now.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { METHOD } from '../../bench/lib/method';

describe('docs/internals/benchmarks.md', () => {
  it('ends with the method as bench/lib/method.ts has it (edit it there: a publish rewrites the page)', () => {
    const page = readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'internals', 'benchmarks.md'), 'utf8');
    const method = page.slice(page.indexOf('## How to run'));
    expect(method).toBe(`${METHOD.trim()}\n`);
  });
});
