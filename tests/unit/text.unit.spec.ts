import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escapeHtml, truncate } from '../../shared/text';

describe('truncate', () => {
  it('returns text that fits unchanged', () => {
    expect(truncate('Short enough', 100)).toBe('Short enough');
    expect(truncate('x'.repeat(100), 100)).toBe('x'.repeat(100));
  });

  it('cuts at the last word boundary and adds an ellipsis', () => {
    expect(truncate('The quick brown fox jumps', 12)).toBe('The quick…');
  });

  it('keeps a whole word that ends exactly at the limit', () => {
    expect(truncate('Hello world again', 11)).toBe('Hello world…');
  });

  it('drops punctuation left before the ellipsis', () => {
    expect(truncate('Hello, world again', 8)).toBe('Hello…');
  });

  it('cuts inside a word when the last boundary is too early (a long word or URL)', () => {
    expect(truncate(`a ${'x'.repeat(50)}`, 20)).toBe(`a ${'x'.repeat(18)}…`);
  });

  it('never splits an emoji in two', () => {
    expect(truncate('ab😀cd', 3)).toBe('ab…');
  });

  it('gives share titles and embeds their lengths: at most the limit plus the ellipsis, a prefix of the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.constantFrom(60, 80, 100, 120, 200), (text, max) => {
        const result = truncate(text, max);
        if (text.length <= max) return result === text;
        return result.endsWith('…') && result.length <= max + 1 && text.startsWith(result.slice(0, -1));
      }),
    );
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that matter in elements and quoted attributes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
