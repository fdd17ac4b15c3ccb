// Comments cite the repo's own docs — a page under docs/ and a section of it in quotes — so a
// reader can go from the code to the why. A cited page or section that does not exist (renamed,
// never written) sends them nowhere: every citation in the code must name a page and a heading
// that are there.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const ROOTS = ['app', 'components', 'server', 'examples', 'bin', 'bench', 'scripts', 'tests', 'e2e', 'prisma'];
// A page, then optionally its sections in quotes (with or without parentheses), as comments write them.
const CITATION = /docs\/((?:internals\/)?[a-z0-9-]+\.md)((?:,?\s*\(?"[^"\n]+"\)?(?:\s*(?:,|and)\s*"[^"\n]+")*)?)/g;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'artifacts', 'results'].includes(entry.name) ? [] : files(full);
    return /\.(ts|tsx|mjs|prisma|sql)$/.test(entry.name) ? [full] : [];
  });
}

/** A page's headings as a citation names them: without code marks. */
function headings(page: string): string[] {
  return [...fs.readFileSync(path.join(root, 'docs', page), 'utf8').matchAll(/^#+\s+(.+)$/gm)].map((match) => match[1]!.replaceAll('`', '').trim());
}

/** A citation may shorten a heading to its first words: "Stateless turns" for "Stateless turns (no header)". */
function hasSection(page: string, section: string): boolean {
  return headings(page).some((heading) => heading === section || (heading.startsWith(section) && /^[\s:(]/.test(heading.slice(section.length))));
}

function citations(): { file: string; page: string; section?: string }[] {
  return ROOTS.filter((dir) => fs.existsSync(path.join(root, dir))).flatMap((dir) =>
    files(path.join(root, dir)).flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(CITATION)].flatMap((match) => {
        const sections = [...(match[2] ?? '').matchAll(/"([^"\n]+)"/g)].map((section) => section[1]!);
        const where = { file: path.relative(root, file), page: match[1]! };
        return sections.length ? sections.map((section) => ({ ...where, section })) : [where];
      }),
    ),
  );
}

describe("the code's citations of docs/", () => {
  it('name pages and sections that exist', () => {
    const found = citations();
    expect(found.length).toBeGreaterThan(100);
    const broken = found.filter(({ page, section }) => !fs.existsSync(path.join(root, 'docs', page)) || (section !== undefined && !hasSection(page, section)));
    expect(broken).toEqual([]);
  });
});
