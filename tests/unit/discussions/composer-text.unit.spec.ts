/** The discussion composer's text (client/features/discussions/text.ts): what it sends, and what Quote writes. */
import { describe, expect, it } from 'vitest';
import { quoteOf, textToHtml, withQuote } from '../../../client/features/discussions/text';

describe('composer text', () => {
  it('sends paragraphs, line breaks and escaped markup', () => {
    expect(textToHtml('First line\nsecond line\n\nA <b>new</b> & "quoted" one')).toBe(
      '<p>First line<br>second line</p><p>A &lt;b&gt;new&lt;/b&gt; &amp; &quot;quoted&quot; one</p>',
    );
  });

  it('sends `>` lines as a quote, with its own paragraphs, and the answer after it', () => {
    expect(textToHtml('> Mary Member wrote:\n> Walt ran the board.\n>\n> Every night.\n\nI remember him.')).toBe(
      '<blockquote><p>Mary Member wrote:<br>Walt ran the board.</p><p>Every night.</p></blockquote><p>I remember him.</p>',
    );
  });

  it('quotes under who wrote it, and adds the quote after what is already written', () => {
    const quote = quoteOf('Mary Member', 'Walt ran the board.\n\nEvery night.');
    expect(quote).toBe('> Mary Member wrote:\n> Walt ran the board.\n>\n> Every night.\n\n');
    expect(withQuote('', quote)).toBe(quote);
    expect(withQuote('Two things.  \n', quote)).toBe(`Two things.\n\n${quote}`);
    expect(textToHtml(`${quote}Yes`)).toBe(
      '<blockquote><p>Mary Member wrote:<br>Walt ran the board.</p><p>Every night.</p></blockquote><p>Yes</p>',
    );
  });
});
