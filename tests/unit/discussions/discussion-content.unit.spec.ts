/** A topic's or reply's text as stored: sanitised HTML, plain text made paragraphs and quotes (server/discussions/content.ts). */
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../shared/domain';
import { discussionHtml, plainTextHtml } from '../../../server/discussions/content';

describe('discussion text', () => {
  it('makes plain text paragraphs, line breaks and quotes, escaping what looks like markup', () => {
    expect(plainTextHtml('First line\nsecond line\n\n> quoted\n> more\n\nAfter 1 < 2')).toBe(
      '<p>First line<br>second line</p><blockquote><p>quoted<br>more</p></blockquote><p>After 1 &lt; 2</p>',
    );
  });

  it('keeps the allowed HTML and drops scripts and handlers, once, on write', () => {
    expect(discussionHtml('<p onclick="x()">Hi <em>there</em></p><script>alert(1)</script>')).toBe('<p>Hi <em>there</em></p>');
  });

  it('refuses a text that is empty once sanitised', () => {
    expect(() => discussionHtml('<script>alert(1)</script>')).toThrow(DomainError);
    expect(() => discussionHtml('<p> </p>')).toThrow('Write something first');
  });
});
