/**
 * The JavaScript a page's first paint downloads (gzip and brotli bytes of the entry script and every chunk it
 * loads, statically or by the dynamic import that page takes), beside the whole client's JavaScript: what the
 * small entry (client/main.tsx) and route-level splitting save. A visitor's public pages (landing, blog, post,
 * event) load the code that hydrates the server's page (client/public-page.tsx), the sign-in page the visitor's
 * pages (client/visitor.tsx), and never the app (client/app.tsx: router, shell, socket, features).
 * Needs `npx vite build`.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { CLIENT_DIR } from '../../server/http/client';
import { staticClosure } from '../support/static-closure';
import { printTable } from './report';

const read = (file: string) => readFileSync(resolve(CLIENT_DIR, file));
const gzipBytes = (file: string) => gzipSync(read(file), { level: 9 }).length;
const brotliBytes = (file: string) => brotliCompressSync(read(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** A chunk of the build by the module it was named after (`app`, `visitor`, `sign-in-page`, ...). */
function chunk(name: string): string {
  const found = readdirSync(resolve(CLIENT_DIR, 'assets')).filter((file) => new RegExp(`^${name}-[\\w-]{8}\\.js$`, 'u').test(file));
  if (found.length !== 1) throw new Error(`Expected one chunk named ${name}, found ${found.join(', ') || 'none'}`);
  return `assets/${found[0]}`;
}

/** The entry script of the app's page. */
export function entryScript(): string {
  const index = resolve(CLIENT_DIR, 'index.html');
  if (!existsSync(index)) throw new Error('No built client: run "npx vite build" first');
  return readFileSync(index, 'utf8').match(/<script type="module"[^>]*src="\/(assets\/[^"]+\.js)"/u)![1]!;
}

/** What a page loads: the entry and the chunks its path imports (client/main.tsx, client/public-page.tsx, client/visitor.tsx). */
export function pageScripts(page: 'visitor landing' | 'visitor sign-in' | 'member newsfeed'): Set<string> {
  const chunks = {
    // The same for a visitor's blog, post and event pages (their comments load later, when read on).
    'visitor landing': ['public-page'],
    'visitor sign-in': ['visitor', 'sign-in-page'],
    'member newsfeed': ['app', 'app-shell', 'newsfeed-page'],
  }[page];
  return staticClosure([entryScript(), ...chunks.map(chunk)]);
}

export async function run() {
  const all = readdirSync(resolve(CLIENT_DIR, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => `assets/${file}`);
  const whole = all.reduce((sum, file) => sum + gzipBytes(file), 0);
  const rows = (['visitor landing', 'visitor sign-in', 'member newsfeed'] as const).map((page) => {
    const files = [...pageScripts(page)];
    const gzip = files.reduce((sum, file) => sum + gzipBytes(file), 0);
    const brotli = files.reduce((sum, file) => sum + brotliBytes(file), 0);
    return {
      figure: `${page} JavaScript (${files.length} files, ${(brotli / 1024).toFixed(1)} KiB brotli)`,
      value: gzip / 1024,
      unit: 'KiB gzip',
      baseline: `whole client (${all.length} files)`,
      baselineValue: whole / 1024,
    };
  });
  printTable(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
