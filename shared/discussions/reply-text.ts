/**
 * What a member wrote in a mailed reply, without what their mail program added: the quoted message ("On … wrote:"
 * and the `>` lines under it, Outlook's "-----Original Message-----" or "From: … Sent: …" header block and all below),
 * and the signature (the `-- ` delimiter, "Sent from my iPhone" and the like). Then the plain text as safe HTML
 * paragraphs, as the reply is posted (docs/domain/discussions-mail.md#reply-by-mail). Pure: the inbound role and its tests
 * call it on real mail as the programs write it.
 */

/** The line that opens a quoted message, as mail programs write it in English and a few other languages. */
const ATTRIBUTION = [
  /^On\b[\s\S]{1,400}\bwrote:$/iu,
  /^Le\b[\s\S]{1,400}\ba écrit\s?:$/iu,
  /^Am\b[\s\S]{1,400}\bschrieb[\s\S]{0,200}:$/iu,
  /^El\b[\s\S]{1,400}\bescribió:$/iu,
  /^Op\b[\s\S]{1,400}\bgeschreven:$/iu,
];
/** Lines after which everything is the forwarded or quoted message. */
const QUOTE_START = [
  /^-{2,}\s*Original Message\s*-{2,}$/iu,
  /^-{2,}\s*Forwarded message\s*-{2,}$/iu,
  /^Begin forwarded message:$/iu,
  /^_{20,}$/u,
];
/** A header line of the block Outlook puts above the message it quotes. */
const OUTLOOK_HEADER = /^\*?(From|Sent|Date|To|Cc|Subject)\s?:\*?\s/iu;
/** Sign-offs that mail programs add on their own: the line and everything after it go. */
const DEVICE_SIGNATURE = [
  /^Sent from my [\w\s.-]{1,40}$/iu,
  /^Sent from (Mail|Outlook|Yahoo Mail|Gmail|AOL)\b.{0,60}$/iu,
  /^Get Outlook for (iOS|Android)\b.{0,60}$/iu,
  /^Sent (via|with) .{1,60}$/iu,
  /^Envoyé de mon .{1,40}$/iu,
  /^Von meinem .{1,60} gesendet$/iu,
];

/** Lines the attribution may be wrapped over (Gmail wraps a long "On … <address> wrote:" at about 78 characters). */
const ATTRIBUTION_LINES = 3;

function isAttribution(lines: string[], at: number): boolean {
  const first = lines[at]!.trim();
  if (first === '' || first.startsWith('>')) return false;
  for (let count = 1; count <= ATTRIBUTION_LINES && at + count <= lines.length; count++) {
    const joined = lines
      .slice(at, at + count)
      .map((line) => line.trim())
      .join(' ');
    if (ATTRIBUTION.some((pattern) => pattern.test(joined))) return true;
  }
  return false;
}

/** Outlook's header block: a From: line with a Sent:/Date: line among the next few (To, Cc and Subject may come between). */
function isOutlookHeader(lines: string[], at: number): boolean {
  if (!/^\*?From\s?:/iu.test(lines[at]!.trim())) return false;
  const next = lines.slice(at + 1, at + 5).map((line) => line.trim());
  return next.some((line) => /^\*?(Sent|Date)\s?:/iu.test(line)) && next.every((line) => line === '' || OUTLOOK_HEADER.test(line));
}

/** Where the quoted message begins, or the number of lines when nothing is quoted that way. */
function quoteStart(lines: string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (QUOTE_START.some((pattern) => pattern.test(line)) || isAttribution(lines, i) || isOutlookHeader(lines, i)) return i;
  }
  return lines.length;
}

/** Where the signature begins: the `-- ` delimiter (RFC 3676, often sent as `--`) or a device's sign-off. */
function signatureStart(lines: string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '-- ' || line === '--' || line.trim() === '--') return i;
    if (DEVICE_SIGNATURE.some((pattern) => pattern.test(line.trim()))) return i;
  }
  return lines.length;
}

/** The member's own words of a mailed reply, trimmed; empty when the mail held nothing but quotes and signature. */
export function stripReplyText(text: string): string {
  let lines = text
    .replace(/\r\n?/gu, '\n')
    // Non-breaking spaces that some programs write instead of spaces, and the zero-width ones Outlook sprinkles.
    .replace(/[\u00a0]/gu, ' ')
    .replace(/[\u200b\ufeff]/gu, '')
    .split('\n');
  lines = lines.slice(0, quoteStart(lines));
  lines = lines.slice(0, signatureStart(lines));
  // Quoted lines the writer kept between their own (interleaved replies).
  lines = lines.filter((line) => !line.trimStart().startsWith('>'));
  return lines
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/gu, (character) => ESCAPES[character]!);

/** Plain text as HTML: a paragraph per blank-line-separated block, its line breaks kept, everything escaped. */
export function replyTextToHtml(text: string): string {
  return text
    .split(/\n\s*\n/u)
    .map((block) => block.trim())
    .filter((block) => block !== '')
    .map((block) => `<p>${block.split('\n').map(escapeHtml).join('<br>')}</p>`)
    .join('');
}

/**
 * The text of a mail that came as HTML only: quoted parts (blockquote, Gmail's and Apple's quote containers,
 * Outlook's reply header div) dropped, block elements as line breaks, tags removed, entities decoded. Good enough for
 * what stripReplyText then reads; the result is escaped again by replyTextToHtml.
 */
export function htmlReplyToText(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/giu, '')
    .replace(/<blockquote\b[\s\S]*<\/blockquote\s*>/giu, '')
    .replace(/<div[^>]*class="[^"]*(gmail_quote|gmail_attr)[^"]*"[\s\S]*$/iu, '')
    .replace(/<div[^>]*id="(divRplyFwdMsg|appendonsend)"[\s\S]*$/iu, '')
    .replace(/<br\s*\/?>/giu, '\n')
    .replace(/<\/(p|div|li|h[1-6]|tr)\s*>/giu, '\n\n')
    .replace(/<[^>]+>/gu, '')
    .replace(/&(#\d+|#x[0-9a-f]+|\w+);/giu, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#') && name !== '#39') return String.fromCodePoint(Number(name.slice(1)));
      return entities[name.toLowerCase()] ?? whole;
    });
}
