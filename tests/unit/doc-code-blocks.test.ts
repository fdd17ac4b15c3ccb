// The README's and docs/make-it-yours.md's TypeScript blocks are what a newcomer pastes first: each
// is compiled here as it stands, against the app's own code and packages (README, "Add an agent").
// An agent block imports `../agent-kit` as a file in server/agents/ would; it is written beside the
// test's other files with that import pointed at server/agent-kit.ts, and nothing else changed.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const PAGES = ['README.md', 'docs/make-it-yours.md'];
const scratch = path.join(root, '.data', 'doc-blocks');

/** Every ```ts block of a page, with the line it starts on. */
function blocks(page: string): { line: number; code: string }[] {
  const text = fs.readFileSync(path.join(root, page), 'utf8');
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => ({
    line: text.slice(0, match.index).split('\n').length,
    code: match[1]!,
  }));
}

/** The type errors of these files, compiled with the app's tsconfig, one line each. */
function typeErrors(files: string[]): string[] {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram(files, { ...options, noEmit: true, incremental: false });
  return files.flatMap((file) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => {
      const where = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
      return `${path.basename(file)}${where ? `:${where.line + 1}` : ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    }),
  );
}

describe("the docs' TypeScript blocks", () => {
  it('compile as pasted', () => {
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.mkdirSync(scratch, { recursive: true });
    const agentKit = path.join(root, 'server', 'agent-kit');
    const files = PAGES.flatMap((page) =>
      blocks(page).map(({ line, code }) => {
        const file = path.join(scratch, `${page.replaceAll(/[/.]/g, '-')}-line-${line}.ts`);
        fs.writeFileSync(file, code.replaceAll(`from '../agent-kit'`, `from '${agentKit}'`));
        return file;
      }),
    );
    // The README's agent and client, make-it-yours's agent.
    expect(files.length).toBeGreaterThanOrEqual(3);
    expect(typeErrors(files)).toEqual([]);
  }, 120_000);
});
