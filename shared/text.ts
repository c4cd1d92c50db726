/** Text helpers shared by the client, the server and the e-mails. */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to put into HTML, in an element or a quoted attribute. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

const ELLIPSIS = '…';
/** Punctuation that reads badly right before an ellipsis ("word,…"). */
const TRAILING_PUNCTUATION = /[\s,;:.\-–—]+$/u;

/**
 * Shortens `text` to at most `max` characters plus an ellipsis, cutting at the last
 * word boundary. When the last boundary would throw away more than half of what fits
 * (one very long word or URL), it cuts inside the word instead.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  // Never split a surrogate pair (emoji) in two.
  if (isLowSurrogate(text.charCodeAt(end))) end -= 1;
  const boundary = /\s/u.test(text.charAt(end)) ? end : text.slice(0, end).search(/\s\S*$/u);
  if (boundary >= max / 2) end = boundary;
  const cut = text.slice(0, end).replace(TRAILING_PUNCTUATION, '');
  return `${cut}${ELLIPSIS}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Text to match literally inside a regular expression (a search box's words in a `$regex`). */
export const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
