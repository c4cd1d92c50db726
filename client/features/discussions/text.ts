/**
 * What a member types and what a topic keeps. The box is plain text, as in the feed's composer: paragraphs split by an
 * empty line, and lines that start with `>` quote someone (the Quote button writes them). The server keeps HTML
 * (sanitised once, on write), so the text goes as `<p>` and `<blockquote>`, and comes back to the box the same way
 * for an edit or a quote.
 */

const escapeHtml = (text: string) =>
  text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;').replace(/"/gu, '&quot;').replace(/'/gu, '&#39;');

/** The text as HTML: each paragraph a `<p>` (its line breaks kept), each run of `>` lines a `<blockquote>`. */
export function textToHtml(text: string): string {
  const lines = text.replace(/\r\n?/gu, '\n').split('\n');
  const html: string[] = [];
  let paragraph: string[] = [];
  let quote: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 0) html.push(`<p>${paragraph.map(escapeHtml).join('<br>')}</p>`);
    paragraph = [];
  };
  const endQuote = () => {
    if (quote.length > 0) html.push(`<blockquote>${textToHtml(quote.join('\n'))}</blockquote>`);
    quote = [];
  };
  for (const line of lines) {
    const quoted = /^\s*>\s?(.*)$/u.exec(line);
    if (quoted) {
      endParagraph();
      quote.push(quoted[1] ?? '');
    } else if (line.trim() === '') {
      endParagraph();
      endQuote();
    } else {
      endQuote();
      paragraph.push(line.trimEnd());
    }
  }
  endParagraph();
  endQuote();
  return html.join('');
}

/** Kept HTML back as the box's text: the inverse of textToHtml for what it writes, and readable for the rest. */
export function htmlToText(html: string, { withQuotes = true } = {}): string {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  return blocksOf(body, withQuotes).join('\n\n');
}

function inlineText(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return (node.textContent ?? '').replace(/\s*\n\s*/gu, ' ');
  if (node.nodeName === 'BR') return '\n';
  return Array.from(node.childNodes).map(inlineText).join('');
}

const BLOCKS = new Set(['P', 'DIV', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'PRE', 'FIGURE']);

function blocksOf(parent: Node, withQuotes: boolean): string[] {
  const blocks: string[] = [];
  let inline = '';
  const flush = () => {
    if (inline.trim()) blocks.push(inline.trim());
    inline = '';
  };
  for (const node of Array.from(parent.childNodes)) {
    const name = node.nodeName;
    if (name === 'BLOCKQUOTE') {
      flush();
      if (!withQuotes) continue;
      const inner = blocksOf(node, true).join('\n\n');
      if (inner)
        blocks.push(
          inner
            .split('\n')
            .map((line) => (line ? `> ${line}` : '>'))
            .join('\n'),
        );
    } else if (name === 'UL' || name === 'OL') {
      flush();
      const items = Array.from(node.childNodes).filter((item) => item.nodeName === 'LI');
      blocks.push(items.map((item, index) => `${name === 'OL' ? `${index + 1}.` : '-'} ${inlineText(item).trim()}`).join('\n'));
    } else if (BLOCKS.has(name)) {
      flush();
      const text = node.nodeName === 'DIV' ? blocksOf(node, withQuotes).join('\n\n') : inlineText(node).trim();
      if (text) blocks.push(text);
    } else {
      inline += inlineText(node);
    }
  }
  flush();
  return blocks;
}

/**
 * What the Quote button puts in the box: `text` (the words selected in a reply, or its own words without the quotes it
 * held) under who wrote them, each line behind `>`, and an empty line to write below.
 */
export function quoteOf(author: string, text: string): string {
  const lines = [`${author} wrote:`, ...text.trim().split('\n')];
  return `${lines.map((line) => (line.trim() ? `> ${line}` : '>')).join('\n')}\n\n`;
}

/** `quote` added to what is in the box: on a paragraph of its own after any text already written. */
export function withQuote(draft: string, quote: string): string {
  const trimmed = draft.replace(/\s+$/u, '');
  return trimmed ? `${trimmed}\n\n${quote}` : quote;
}
