/**
 * The editor's formatting aid: each format turns the selected part of the content box
 * into HTML the server's allow-list keeps, and says what to select afterwards so the
 * author can keep typing inside the new element.
 */
export type Format = 'heading' | 'subheading' | 'paragraph' | 'bold' | 'italic' | 'quote' | 'bulleted' | 'numbered' | 'link';

export interface Edit {
  content: string;
  selectionStart: number;
  selectionEnd: number;
}

const INLINE: Partial<Record<Format, string>> = { bold: 'strong', italic: 'em' };
const BLOCK: Partial<Record<Format, string>> = { heading: 'h2', subheading: 'h3', paragraph: 'p', quote: 'blockquote' };
const LIST: Partial<Record<Format, string>> = { bulleted: 'ul', numbered: 'ol' };

/** Applies `format` to content[start, end); `href` is the address of a link. */
export function applyFormat(content: string, start: number, end: number, format: Format, href = ''): Edit {
  const before = content.slice(0, start);
  const selected = content.slice(start, end);
  const after = content.slice(end);
  const wrap = (open: string, inner: string, close: string, lineBreaks: boolean): Edit => {
    // Blocks go on lines of their own, so the source stays readable as it grows.
    const lead = lineBreaks && before && !before.endsWith('\n') ? '\n' : '';
    const trail = lineBreaks && after && !after.startsWith('\n') ? '\n' : '';
    const innerStart = before.length + lead.length + open.length;
    return {
      content: `${before}${lead}${open}${inner}${close}${trail}${after}`,
      selectionStart: innerStart,
      selectionEnd: innerStart + inner.length,
    };
  };

  const inline = INLINE[format];
  if (inline) return wrap(`<${inline}>`, selected, `</${inline}>`, false);
  const block = BLOCK[format];
  if (block) return wrap(`<${block}>`, selected.trim(), `</${block}>`, true);
  const list = LIST[format];
  if (list) {
    const lines = selected
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    if (lines.length === 0) return wrap(`<${list}>\n  <li>`, '', `</li>\n</${list}>`, true);
    const items = lines.map((line) => `  <li>${line}</li>`).join('\n');
    return wrap(`<${list}>\n`, items, `\n</${list}>`, true);
  }
  const escaped = href.trim().replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return wrap(`<a href="${escaped}">`, selected || escaped, '</a>', false);
}

/** Only the schemes the server keeps in a link; anything else would be stripped on save. */
export function isAllowedLink(href: string): boolean {
  return /^(https?:\/\/[^\s/]+|mailto:\S+@\S+)/iu.test(href.trim());
}

export interface InlineImage {
  src: string;
  width?: number | undefined;
  height?: number | undefined;
  alt: string;
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Puts a picture in place of content[start, end), in a paragraph on lines of its own, with its width and height
 * (so the page keeps its place while it loads) and its alt text; the cursor goes after it.
 */
export function insertImage(content: string, start: number, end: number, image: InlineImage): Edit {
  const before = content.slice(0, start);
  const after = content.slice(end);
  const size = image.width && image.height ? ` width="${image.width}" height="${image.height}"` : '';
  const tag = `<p><img src="${attribute(image.src)}"${size} alt="${attribute(image.alt.trim())}" /></p>`;
  const lead = before && !before.endsWith('\n') ? '\n' : '';
  const trail = after && !after.startsWith('\n') ? '\n' : '';
  const cursor = before.length + lead.length + tag.length;
  return { content: `${before}${lead}${tag}${trail}${after}`, selectionStart: cursor, selectionEnd: cursor };
}

/** The alt text offered for an uploaded picture: its file name without the extension, words apart ("wave-tower_1962.jpg" → "wave tower 1962"). */
export function altFromFileName(name: string): string {
  return name
    .replace(/\.[^.]*$/u, '')
    .replace(/[-_]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}
