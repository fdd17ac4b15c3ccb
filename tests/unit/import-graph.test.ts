// The house has no import circle (docs/internals/architecture.md, "Rooms"): not through values, not
// through types. ESLint's import/no-cycle skips `import type`, and a type-only circle still
// ties the rooms together (every file of it must be read to understand any one), so this test
// reads every import of the product's code — static, type-only and dynamic — and walks the graph.
// The same graph shows that the product (the bench aside) imports nothing of the tests, and
// nothing of the demo (examples/demo/) but through the registry and the demo's own route.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const ROOTS = ['app', 'components', 'server', 'examples', 'bin', 'bench', 'scripts'];
const CODE = /\.(ts|tsx|mjs)$/;
const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function codeFiles(dir: string, withTests = false): string[] {
  // examples/ is gone once `npm run demo:remove` has run.
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'results' ? [] : codeFiles(full, withTests);
    return CODE.test(entry.name) && (withTests || !/\.test\.tsx?$/.test(entry.name)) ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith('@/')
    ? path.join(root, specifier.slice(2))
    : specifier.startsWith('.')
      ? path.resolve(path.dirname(from), specifier)
      : undefined;
  if (!base) return undefined;
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
}

/** The import graph of the product's code: file → the files it imports. */
function importGraph(): Map<string, string[]> {
  const files = ROOTS.flatMap((dir) => codeFiles(path.join(root, dir)));
  return new Map(
    files.map((file) => [
      file,
      [...fs.readFileSync(file, 'utf8').matchAll(IMPORT)]
        .map((match) => resolveImport(file, match[1] ?? match[2]!))
        .filter((target): target is string => !!target && CODE.test(target)),
    ]),
  );
}

/** Every circle of the graph, as the files it passes through (Tarjan's strongly connected components). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(path.relative(root, member));
      } while (member !== file);
      if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('the import graph', () => {
  it('has no circle, type-only imports included', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(200);
    expect(circles(graph)).toEqual([]);
  });

  it('would see one: a type-only import back up a room is a circle', () => {
    const graph = importGraph();
    const define = path.join(root, 'server/authoring/define.ts');
    const face = path.join(root, 'server/runtime/index.ts');
    graph.set(define, [...(graph.get(define) ?? []), face]);
    expect(circles(graph).some((circle) => circle.includes('server/authoring/define.ts'))).toBe(true);
  });

  it('has the product\'s code import nothing of tests/: the registry gets the fixture agents from the build (docs/internals/architecture.md, "Fixture agents")', () => {
    const tests = path.join(root, 'tests') + path.sep;
    const product = [...importGraph()].filter(([file]) => !file.startsWith(path.join(root, 'bench') + path.sep));
    expect(product.length).toBeGreaterThan(200);
    const intoTests = product.flatMap(([file, targets]) =>
      targets.filter((target) => target.startsWith(tests)).map((target) => `${path.relative(root, file)} → ${path.relative(root, target)}`),
    );
    expect(intoTests).toEqual([]);
  });

  it("has the product's code import nothing of examples/ but the registry's one line and the demo's own route (docs/make-it-yours.md)", () => {
    const examples = path.join(root, 'examples') + path.sep;
    const within = (file: string, ...dirs: string[]) => dirs.some((dir) => file.startsWith(path.join(root, dir) + path.sep));
    // The registry lists the demo's agents; app/api/demo/ is the demo's route, which Next wants under app/.
    const allowed = [path.join(root, 'server/agents/index.ts')];
    const product = [...importGraph()].filter(
      ([file]) => within(file, 'app', 'server', 'components') && !within(file, 'app/api/demo') && !allowed.includes(file),
    );
    expect(product.length).toBeGreaterThan(200);
    const intoExamples = product.flatMap(([file, targets]) =>
      targets.filter((target) => target.startsWith(examples)).map((target) => `${path.relative(root, file)} → ${path.relative(root, target)}`),
    );
    expect(intoExamples).toEqual([]);
    const registry = importGraph().get(allowed[0]!) ?? [];
    // One line, while the demo is here: `npm run demo:remove` takes it out with the demo.
    const demoHere = fs.existsSync(path.join(root, 'examples/demo'));
    expect(registry.filter((target) => target.startsWith(examples)).map((target) => path.relative(root, target))).toEqual(
      demoHere ? ['examples/demo/index.ts'] : [],
    );
  });

  it('has the tests of the product (tests/, e2e/ and every *.test.ts outside examples/) import nothing of examples/: they drive fixture agents, so they pass without the demo (docs/make-it-yours.md)', () => {
    const examples = path.join(root, 'examples') + path.sep;
    const suite = ['tests', 'e2e', 'server', 'components', 'scripts', 'bin'].flatMap((dir) => codeFiles(path.join(root, dir), true));
    expect(suite.filter((file) => file.endsWith('.test.ts')).length).toBeGreaterThan(150);
    const intoExamples = suite.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(IMPORT)]
        .map((match) => resolveImport(file, match[1] ?? match[2]!))
        .filter((target): target is string => !!target && target.startsWith(examples))
        .filter(() => !file.endsWith(path.join('server', 'agents', 'index.ts')))
        .map((target) => `${path.relative(root, file)} → ${path.relative(root, target)}`),
    );
    expect(intoExamples).toEqual([]);
  });
});
