/**
 * What a page of the built client loads before its code runs (`npx vite build` first): used by the client-bundle
 * bench and the built client's integration test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_DIR } from '../../server/http/client';

/**
 * The files and the chunks they import statically, recursively: all of it loads before their code runs. Files are
 * named as a page names them (`/assets/…`) or from the built client's folder (`assets/…`); the chunks they import
 * come back named the same way.
 */
export function staticClosure(files: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...files];
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const folder = file.slice(0, file.lastIndexOf('/') + 1);
    for (const [, imported] of readFileSync(join(CLIENT_DIR, file), 'utf8').matchAll(/(?:\bfrom|\bimport)\s*"\.\/([^"]+\.js)"/gu))
      pending.push(`${folder}${imported}`);
  }
  return seen;
}
