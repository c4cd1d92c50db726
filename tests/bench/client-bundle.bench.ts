/**
 * The JavaScript a visitor downloads for the landing page (gzip bytes of the
 * entry script and the chunks it preloads), beside the whole client's
 * JavaScript: what route-level code splitting saves. Needs `npm run build`.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CLIENT_DIR } from '../../server/http/client';
import { printTable } from './report';

const gzipBytes = (file: string) => gzipSync(readFileSync(resolve(CLIENT_DIR, file)), { level: 9 }).length;

export async function run() {
  const index = resolve(CLIENT_DIR, 'index.html');
  if (!existsSync(index)) throw new Error('No built client: run "npm run build" first');
  const html = readFileSync(index, 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  const all = readdirSync(resolve(CLIENT_DIR, 'assets')).filter((file) => file.endsWith('.js')).map((file) => `assets/${file}`);
  const landing = initial.reduce((sum, file) => sum + gzipBytes(file), 0);
  const whole = all.reduce((sum, file) => sum + gzipBytes(file), 0);
  printTable([{ figure: `landing page JavaScript (${initial.length} files)`, value: landing / 1024, unit: 'KiB gzip', baseline: `whole client (${all.length} files)`, baselineValue: whole / 1024 }]);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
