/**
 * The import rules of STYLE.md, checked: the client never imports server,
 * projections or workers; shared imports nothing of theirs either; client
 * features do not import each other.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.endsWith('.gen.ts')) return [];
    return statSync(path).isDirectory() ? files(path) : /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

const problems: string[] = [];
for (const [layer, forbidden] of [
  ['client', ['server', 'projections', 'workers']],
  ['shared', ['server', 'projections', 'workers', 'client']],
] as const) {
  for (const file of files(join(root, layer))) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? '';
      if (!specifier.startsWith('.')) continue;
      const target = relative(root, resolve(dirname(file), specifier));
      const top = target.split('/')[0] ?? '';
      if ((forbidden as readonly string[]).includes(top)) problems.push(`${relative(root, file)} imports ${target}`);
      const from = relative(root, file).match(/^client\/features\/([^/]+)\//)?.[1];
      const to = target.match(/^client\/features\/([^/]+)/)?.[1];
      if (layer === 'client' && from && to && from !== to && from !== 'shell') problems.push(`feature ${from} imports feature ${to} (${relative(root, file)})`);
    }
  }
}
if (problems.length > 0) {
  console.error(`Import boundaries broken:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('Import boundaries hold.');
