/**
 * The code cites the notes it relies on as `docs/<file>.md#<section>`: every such citation must name a file
 * and a heading that exist, and nothing may cite documents kept outside the repository (the original
 * specification's sections, API.md), which a reader of the repository cannot open.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');
const SOURCE_FOLDERS = ['client', 'server', 'shared', 'platform', 'projections', 'workers', 'main', 'scripts', 'tests'];
const CITATION = /docs\/[\w/-]+\.md(?:#[\w-]+)?/g;
const OUTSIDE_DOCUMENTS = /\bspec [12] §|\bAPI\.md\b/;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|tsx|js|cjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as dashes. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const headings = readFileSync(file, 'utf8').match(/^#{1,6} .+$/gm) ?? [];
  return new Set(headings.map((line) => headingAnchor(line.replace(/^#+ /, ''))));
}

const files = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))).filter(
  (file) => !file.endsWith('docs-links.unit.spec.ts'),
);

describe('citations of the documents', () => {
  it('turns headings into the anchors GitHub uses', () => {
    expect(headingAnchor('Read-your-writes')).toBe('read-your-writes');
    expect(headingAnchor('Differences from the spec')).toBe('differences-from-the-spec');
    expect(headingAnchor('Types and frequencies')).toBe('types-and-frequencies');
  });

  it('names files and sections that exist', () => {
    const broken: string[] = [];
    let count = 0;
    for (const file of files) {
      for (const citation of readFileSync(file, 'utf8').match(CITATION) ?? []) {
        count++;
        const [path, anchor] = citation.split('#') as [string, string | undefined];
        const target = join(ROOT, path);
        if (!existsSync(target) || (anchor && !anchorsOf(target).has(anchor))) broken.push(`${relative(ROOT, file)}: ${citation}`);
      }
    }
    expect(broken).toEqual([]);
    expect(count).toBeGreaterThan(10);
  });

  it('cites nothing kept outside the repository', () => {
    const outside = files.filter((file) => OUTSIDE_DOCUMENTS.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));
    expect(outside).toEqual([]);
  });
});
