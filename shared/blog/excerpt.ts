/**
 * Plain text from blog HTML, for excerpts and share descriptions. Pure (no parser), so
 * the client can use it too: it expects HTML already through `sanitizeBlogHtml`, which
 * leaves no script or style contents, no '>' inside attributes and, as entities, only
 * &amp; &lt; &gt; &quot; (everything else is stored as the character itself).
 */
import { truncate } from '../text';

export const EXCERPT_LENGTH = 200;

/** Elements after which text continues as a new word ("<p>One</p><p>Two</p>" is "One Two"). */
const BLOCK_BOUNDARY =
  /<\/?(?:p|br|hr|h[1-6]|ul|ol|li|blockquote|pre|table|thead|tbody|tr|th|td|figure|figcaption|div|section|article)\b[^>]*>/giu;
const TAG = /<[^>]*>/gu;
const ENTITY = /&(?:#(\d{1,7})|#x([\da-f]{1,6})|(amp|lt|gt|quot|apos|nbsp));/giu;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function htmlToText(html: string): string {
  return html
    .replace(BLOCK_BOUNDARY, ' ')
    .replace(TAG, '')
    .replace(ENTITY, (entity, decimal?: string, hex?: string, name?: string) => {
      if (name) return NAMED[name.toLowerCase()] ?? entity;
      const code = decimal ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? '', 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Whether showing the excerpt above the post would only repeat it: a short post's generated excerpt is all its text. */
export function excerptRepeatsBody(excerpt: string, html: string): boolean {
  return excerpt.trim() === htmlToText(html);
}

/** The first 200 characters of the text, cut at a word boundary with '…' when cut. */
export function generateExcerpt(html: string): string {
  return truncate(htmlToText(html), EXCERPT_LENGTH);
}
