/**
 * What a word processor puts on the clipboard, made plain before the editor reads it. The editor's schema already
 * keeps only the markup a post may hold (no styles, classes or spans), so this only takes out what the schema would
 * read as text: Word's hidden markup (style sheets, XML islands, conditional comments, `o:p` and other namespaced
 * tags), the bullets and numbers it types in front of list items, and the empty paragraphs it spaces with; and it
 * turns Word's list paragraphs (`mso-list`) into lists. Pure string work: it runs in the paste handler and in tests.
 */

const WORD = /urn:schemas-microsoft-com:office|class="?Mso|mso-/iu;
const LIST_MARKER = /<!--\[if !supportLists\]-->([^]*?)<!--\[endif\]-->|<!\[if !supportLists\]>([^]*?)<!\[endif\]>/giu;
const LIST_PARAGRAPH = /<p\b[^>]*\bmso-list:\s*l\d+[^>]*>([^]*?)<\/p>/giu;
/** A numbered item's marker: 1. 1) a. iv. (a letter or roman numeral of Word's outline numbering). */
const NUMBERED = /^\(?(?:\d+|[a-z]|[ivxlc]+)[.)]/iu;

const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/gu, '')
    .replace(/&nbsp;|&#160;|\u00a0/gu, ' ')
    .trim();

/** Word's HTML as plain markup; anything else as it came. */
export function cleanWordHtml(html: string): string {
  if (!WORD.test(html)) return html;
  let kinds: ('ul' | 'ol')[] = [];
  let cleaned = html
    .replace(/<head\b[^]*?<\/head>/giu, '')
    .replace(/<(style|xml)\b[^]*?<\/\1>/giu, '')
    // A list item's bullet or number, typed by Word in front of its text: it says which kind of list the item is in.
    .replace(LIST_MARKER, (_match, commented: string | undefined, revealed: string | undefined) => {
      kinds.push(NUMBERED.test(textOf(commented ?? revealed ?? '')) ? 'ol' : 'ul');
      return '\u0000';
    })
    // Hidden conditional parts (VML pictures, fallbacks) go with their contents; revealed ones keep theirs.
    .replace(/<!--\[if [^\]]*\]>[^]*?<!\[endif\]-->/giu, '')
    .replace(/<!--\[if [^\]]*\]-->|<!--\[endif\]-->|<!\[if [^\]]*\]>|<!\[endif\]>/giu, '')
    .replace(/<!--[^]*?-->/gu, '')
    .replace(/<o:p\b[^>]*>[^]*?<\/o:p>/giu, '')
    .replace(/<\/?[a-z]+:[a-z]+\b[^>]*>/giu, '');
  // Word's list paragraphs become items; a paragraph holding a marker takes its kind, in order.
  cleaned = cleaned.replace(LIST_PARAGRAPH, (_match, inner: string) => {
    const kind = inner.includes('\u0000') ? (kinds.shift() ?? 'ul') : 'ul';
    return `<li data-word-list="${kind}">${inner.replace(/\u0000/gu, '').trim()}</li>`;
  });
  kinds = [];
  // Items next to each other, of the same kind, go in one list.
  cleaned = cleaned.replace(/(?:<li data-word-list="(ul|ol)">[^]*?<\/li>\s*)+/gu, (run) =>
    run
      .trim()
      .split(/(?<=<\/li>)\s*/u)
      .reduce<{ kind: string; items: string[] }[]>((lists, item) => {
        const kind = /data-word-list="(ul|ol)"/u.exec(item)?.[1] ?? 'ul';
        const plain = item.replace(/ data-word-list="(?:ul|ol)"/u, '');
        const last = lists.at(-1);
        if (last?.kind === kind) last.items.push(plain);
        else lists.push({ kind, items: [plain] });
        return lists;
      }, [])
      .map(({ kind, items }) => `<${kind}>${items.join('')}</${kind}>`)
      .join(''),
  );
  return cleaned.replace(/\u0000/gu, '').replace(/<p\b[^>]*>(?:\s|&nbsp;|&#160;|\u00a0)*<\/p>/giu, '');
}
