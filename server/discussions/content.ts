/**
 * A topic's or reply's text, made safe once, on write: HTML through the blog's allow-list. Text with no markup (the
 * composer's plain text, a mailed reply) becomes paragraphs first, its `>` lines a quote.
 */
import { fail } from '../../shared/domain';
import { escapeHtml } from '../../shared/text';
import { htmlToText } from '../../shared/blog/excerpt';
import { sanitizeBlogHtml } from '../../shared/blog/sanitize';
import { DISCUSSION_CONTENT_MAX_LENGTH } from '../../shared/discussions/constants';

const MARKUP = /<[a-z/!]/iu;

/** Plain text as HTML: blank lines part paragraphs, a line break stays one, lines beginning with `>` are quoted. */
export function plainTextHtml(text: string): string {
  const blocks: { quote: boolean; lines: string[] }[] = [];
  for (const line of text.replace(/\r\n?/gu, '\n').split('\n')) {
    const quoted = /^>\s?(.*)$/u.exec(line);
    const quote = quoted !== null;
    const words = quoted ? quoted[1]! : line;
    const last = blocks.at(-1);
    if (!quote && words.trim() === '') {
      if (last && !last.quote && last.lines.length) blocks.push({ quote: false, lines: [] });
      continue;
    }
    if (last && last.quote === quote) last.lines.push(words);
    else blocks.push({ quote, lines: [words] });
  }
  const paragraphs = (lines: string[]) =>
    lines
      .join('\n')
      .split(/\n\s*\n/u)
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => `<p>${part.split('\n').map(escapeHtml).join('<br>')}</p>`)
      .join('');
  return blocks
    .filter((block) => block.lines.some((line) => line.trim() !== ''))
    .map((block) => (block.quote ? `<blockquote>${paragraphs(block.lines)}</blockquote>` : paragraphs(block.lines)))
    .join('');
}

/** The text as stored: sanitised HTML; refused when nothing is left of it, or too long once made HTML. */
export function discussionHtml(content: string, field = 'content'): string {
  const html = sanitizeBlogHtml(MARKUP.test(content) ? content : plainTextHtml(content)).trim();
  if (!htmlToText(html) && !/<img\b/iu.test(html)) throw fail.invalid('Write something first', { [field]: 'Write something first' });
  if (html.length > DISCUSSION_CONTENT_MAX_LENGTH) {
    const message = `Text must be at most ${DISCUSSION_CONTENT_MAX_LENGTH.toLocaleString('en-US')} characters`;
    throw fail.invalid(message, { [field]: message });
  }
  return html;
}
