import { describe, expect, it } from 'vitest';
import { EXCERPT_LENGTH, excerptRepeatsBody, generateExcerpt, htmlToText } from '../../../shared/blog/excerpt';
import { sanitizeBlogHtml } from '../../../shared/blog/sanitize';

describe('htmlToText', () => {
  it('strips tags, decodes entities and collapses whitespace', () => {
    expect(htmlToText('<h1>Title</h1>\n<p>One &amp; two&nbsp;&lt;three&gt; &quot;q&quot;</p>\n\n<p>Four</p>')).toBe(
      'Title One & two <three> "q" Four',
    );
  });

  it('separates words across blocks and line breaks but not across inline tags', () => {
    expect(htmlToText('<ul><li>AM</li><li>FM</li></ul>line<br />break <strong>W</strong>ord')).toBe('AM FM line break Word');
  });

  it('decodes numeric entities and decodes only once', () => {
    expect(htmlToText('1920&#8212;1930 &#x2014; &amp;lt;')).toBe('1920—1930 — &lt;');
  });

  it('reads sanitised output, where script and style contents are already gone', () => {
    expect(
      htmlToText(
        sanitizeBlogHtml('<p>Kept</p><script>alert("not kept")</script><style>p{}</style><a href="https://a.org" title="x>y">link</a>'),
      ),
    ).toBe('Kept link');
  });
});

describe('generateExcerpt', () => {
  it('keeps a short text whole', () => {
    expect(generateExcerpt('<p>A short post.</p>')).toBe('A short post.');
  });

  it(`cuts the text at a word boundary within ${EXCERPT_LENGTH} characters, with an ellipsis`, () => {
    const words = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ');
    const excerpt = generateExcerpt(`<p>${words}</p>`);
    expect(excerpt.endsWith('…')).toBe(true);
    const kept = excerpt.slice(0, -1);
    expect(kept.length).toBeLessThanOrEqual(EXCERPT_LENGTH);
    expect(words.startsWith(`${kept} `)).toBe(true);
  });

  it('is empty for content without text', () => {
    expect(generateExcerpt('<p> </p><hr />')).toBe('');
  });
});

describe('excerptRepeatsBody', () => {
  it('is true when the excerpt is the whole text of a short post, and false when it leads into a longer one or is the author’s own', () => {
    const short = '<h2>Steel</h2><p>The crews worked through two winters.</p>';
    expect(excerptRepeatsBody(generateExcerpt(short), short)).toBe(true);
    const long = `<p>${Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ')}</p>`;
    expect(excerptRepeatsBody(generateExcerpt(long), long)).toBe(false);
    expect(excerptRepeatsBody('Voices that kept the night company.', short)).toBe(false);
  });
});
