import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as v from 'valibot';
import { FORBIDDEN_CHARACTERS_MESSAGE, text, writtenText } from '../../shared/text-schema';
import { decodeQueryComponent, parseQueryString } from '../../server/http/query-string';

const issuesOf = (input: unknown) => v.safeParse(text('Must be text'), input).issues?.map((issue) => issue.message);

describe('the shared text schema', () => {
  it('takes any well-formed text, emoji and other surrogate pairs included', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\0')),
        (s) => v.is(text(), s),
      ),
    );
    expect(issuesOf('📻 WGN – Café')).toBeUndefined();
  });

  it('refuses NUL, a lone high or low surrogate and a pair in the wrong order', () => {
    for (const bad of ['a\u0000b', 'a\ud800', '\udfffb', 'a\udc00\ud800b', '📻'.slice(0, 1)])
      expect(issuesOf(bad)).toEqual([FORBIDDEN_CHARACTERS_MESSAGE]);
  });

  it("keeps the field's own message for what is not a string", () => {
    expect(issuesOf(42)).toEqual(['Must be text']);
  });
});

describe('the query string parser', () => {
  it('decodes as fastify did: + is a space, escapes are UTF-8, repeated keys give a list, a bare key is empty', () => {
    expect({ ...parseQueryString('q=Caf%C3%A9+%F0%9F%93%BB&tag=a&tag=b&tag=c&flag&&x=%ZZ%') }).toEqual({
      q: 'Café 📻',
      tag: ['a', 'b', 'c'],
      flag: '',
      x: '%ZZ%',
    });
  });

  it('makes escapes that are not UTF-8 lone surrogates, which the text schema refuses', () => {
    for (const escaped of ['%ED%A0%80', '%FF', '%C0%80', 'ok%E2%82'])
      expect(v.is(text(), decodeQueryComponent(escaped)), escaped).toBe(false);
    expect(decodeQueryComponent('%00')).toBe('\u0000');
  });

  it('gives __proto__ no special meaning', () => {
    const parsed = parseQueryString('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(parsed.__proto__).toBe('x');
  });

  it('decodes whatever encodeURIComponent encodes back to the same text', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => decodeQueryComponent(encodeURIComponent(s)) === s));
  });
});

describe('written text (a comment, a reply, a name)', () => {
  const comment = writtenText('Comment', 'Comment cannot be empty', 2000);
  const messages = (input: unknown) => v.safeParse(comment, input).issues?.map((issue) => issue.message);

  it('is trimmed, and refuses what is left empty with its own words', () => {
    expect(v.parse(comment, '  Who remembers WLS?  ')).toBe('Who remembers WLS?');
    expect(messages('   ')).toEqual(['Comment cannot be empty']);
  });

  it('names the field in its other refusals, the limit written as people read it', () => {
    expect(v.is(comment, 'x'.repeat(2000))).toBe(true);
    expect(messages('x'.repeat(2001))).toEqual(['Comment must be at most 2,000 characters']);
    expect(messages(42)).toEqual(['Comment must be text']);
    expect(messages('a\0b')).toEqual([FORBIDDEN_CHARACTERS_MESSAGE]);
  });
});
