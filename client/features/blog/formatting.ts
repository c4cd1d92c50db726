/** The blog editor's pure rules: which links it accepts, a picture's first alt text, and how its HTML is laid out. */

/** Only the schemes the server keeps in a link; anything else would be stripped on save. */
export function isAllowedLink(href: string): boolean {
  return /^(https?:\/\/[^\s/]+|mailto:\S+@\S+)/iu.test(href.trim());
}

/** The alt text offered for an uploaded picture: its file name without the extension, words apart ("wave-tower_1962.jpg" → "wave tower 1962"). */
export function altFromFileName(name: string): string {
  return name
    .replace(/\.[^.]*$/u, '')
    .replace(/[-_]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** A paragraph's inside: anything up to its own end (a paragraph holds no paragraph). */
const PARAGRAPH = '<p>((?:(?!</p>)[^])*)</p>';
const FIRST_PARAGRAPH_OF_ITEM = new RegExp(`<li>${PARAGRAPH}(?=</li>|<ul>|<ol>)`, 'gu');
const ONLY_PARAGRAPH_OF_QUOTE = new RegExp(`<blockquote>${PARAGRAPH}</blockquote>`, 'gu');

/**
 * One block of the editor's HTML as the blog writes it: a list item's or quote's single paragraph without its `<p>`
 * (`<li>AM</li>`, `<blockquote>Old days</blockquote>`), as posts have always had them; the editor reads both forms alike.
 */
export function tightenBlock(html: string): string {
  return html.replace(FIRST_PARAGRAPH_OF_ITEM, '<li>$1').replace(ONLY_PARAGRAPH_OF_QUOTE, '<blockquote>$1</blockquote>');
}

/**
 * The post's HTML from its blocks' HTML: a block on each line; empty paragraphs at the end left out, and none at all
 * for a post with nothing in it (so "Content is required" still holds).
 */
export function postHtml(blocks: readonly string[]): string {
  const kept = blocks.map(tightenBlock);
  while (kept.length > 0 && kept.at(-1) === '<p></p>') kept.pop();
  return kept.join('\n');
}
