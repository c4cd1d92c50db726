/**
 * The parser of query strings and url-encoded form bodies. fastify's default keeps a value whose escapes are not
 * UTF-8 (`%ED%A0%80`, an encoded lone surrogate, or `%FF`) as its literal escapes, so such text passed every schema
 * as something it was not. Here each run of escapes that is not UTF-8 becomes lone surrogates, one per byte (as
 * Python's "surrogateescape"), which the shared text schema refuses with the field's name. Repeated keys give an
 * array, as before.
 */

const ESCAPE_RUN = /(?:%[\da-f]{2})+/giu;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeEscapeRun(run: string): string {
  const bytes = Uint8Array.from(run.slice(1).split('%'), (hex) => Number.parseInt(hex, 16));
  try {
    return utf8.decode(bytes);
  } catch {
    return Array.from(bytes, (byte) => String.fromCharCode(0xdc00 | byte)).join('');
  }
}

/** One key or value: `+` is a space, escapes are decoded, a `%` that starts no escape is kept as it is. */
export function decodeQueryComponent(component: string): string {
  const spaced = component.replaceAll('+', ' ');
  return spaced.includes('%') ? spaced.replace(ESCAPE_RUN, decodeEscapeRun) : spaced;
}

export function parseQueryString(query: string): Record<string, string | string[]> {
  // No prototype: a key such as `__proto__` is just a key.
  const parsed: Record<string, string | string[]> = Object.create(null);
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const equals = pair.indexOf('=');
    const key = decodeQueryComponent(equals === -1 ? pair : pair.slice(0, equals));
    const value = equals === -1 ? '' : decodeQueryComponent(pair.slice(equals + 1));
    const earlier = parsed[key];
    parsed[key] = earlier === undefined ? value : [earlier, value].flat();
  }
  return parsed;
}
