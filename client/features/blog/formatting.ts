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
    return { content: `${before}${lead}${open}${inner}${close}${trail}${after}`, selectionStart: innerStart, selectionEnd: innerStart + inner.length };
  };

  const inline = INLINE[format];
  if (inline) return wrap(`<${inline}>`, selected, `</${inline}>`, false);
  const block = BLOCK[format];
  if (block) return wrap(`<${block}>`, selected.trim(), `</${block}>`, true);
  const list = LIST[format];
  if (list) {
    const lines = selected.split('\n').map((line) => line.trim()).filter(Boolean);
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
