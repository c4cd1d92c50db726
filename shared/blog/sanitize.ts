/**
 * The allow-list for blog HTML. Server side only (sanitize-html needs Node); run once,
 * when a post is saved, never per read. Anything not listed is dropped; the contents
 * of script, style and similar raw-text elements go with them instead of showing as text.
 */
import sanitizeHtml from 'sanitize-html';
import { YOUTUBE_EMBED_ATTRIBUTES, youtubeEmbedSource } from './embeds';

/**
 * Whether a link leads into the site's API. Relative links are resolved as a browser would; absolute ones
 * cannot be told from another site's /api/ without knowing our address, so every http(s) link to an /api/
 * path is left out (a blog has no reason to link to any site's API).
 */
function intoOurApi(href: string): boolean {
  try {
    return /^\/api(?:\/|$)/iu.test(decodeURIComponent(new URL(href.trim(), 'https://site.invalid/blog/post').pathname));
  } catch {
    return true;
  }
}

/** A file of one of our own uploads, exactly as the media routes serve it (docs/domain/media.md#serving). */
const OUR_MEDIA = /^\/media\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[a-z0-9-]+\.(?:webp|jpg|png)$/u;
const PIXELS = /^[1-9][0-9]{0,4}$/u;

/** An image source a post may load: absolute https outside our API, or one of our uploads' files. */
const allowedImageSource = (src: string) => OUR_MEDIA.test(src) || (src.startsWith('https://') && !intoOurApi(src));

/**
 * How many frames the element being read is inside. A browser reads a frame's inside as text it never shows, where the
 * parser here reads elements: whatever is inside one goes, so nothing is kept that the two would read differently.
 * One count per call (sanitising is synchronous), set back before each.
 */
let insideFrames = 0;

/** The elements a post may keep; any other element goes (its text stays, unless it is one of nonTextTags below). */
export const BLOG_ALLOWED_TAGS: readonly string[] = [
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'br',
  'hr',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'blockquote',
  'pre',
  'code',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'del',
  'sub',
  'sup',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'figure',
  'figcaption',
  // Only a YouTube player, in the one form transformTags gives it below; any other frame goes.
  'iframe',
];

/** The attributes each allowed element may keep; an element not named here keeps none. */
export const BLOG_ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'rel', 'target'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
  iframe: Object.keys(YOUTUBE_EMBED_ATTRIBUTES),
};

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...BLOG_ALLOWED_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(BLOG_ALLOWED_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
  allowedSchemes: ['http', 'https', 'mailto'],
  // Images load without a click, so only absolute https sources (no mixed content) and files of our own
  // uploads (`/media/<id>/<file>`, public and without effects); no other relative source that would make every
  // reader's browser call one of our own endpoints.
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'noembed', 'noframes', 'template', 'xmp', 'select'],
  transformTags: {
    // Every link gets the same rel, whatever the author wrote, so a linked page gets no handle on ours;
    // a target other than a new tab could navigate a frame of the embedding site. A link into our own API
    // (`/api/logout`, say) would act with the reader's session at a click: it keeps its text, not its address.
    a: (tagName, { target, href, ...attribs }) => ({
      tagName,
      attribs: {
        ...(href !== undefined && !intoOurApi(href) ? { href } : {}),
        ...attribs,
        ...(target === '_blank' ? { target } : {}),
        rel: 'noopener noreferrer',
      },
    }),
    // A YouTube video plays from the privacy-enhanced address (CSP's frame-src allows no other), with the same
    // attributes on every post and nothing inside; a frame of anything else loses its address and goes (exclusiveFilter).
    iframe: (tagName, { src, title }) => {
      const embed = youtubeEmbedSource(src ?? '');
      return {
        tagName,
        attribs: embed ? { ...YOUTUBE_EMBED_ATTRIBUTES, src: embed, title: title?.trim() || YOUTUBE_EMBED_ATTRIBUTES.title } : {},
        text: '',
      };
    },
    // A picture's size only as whole pixels (it reserves the picture's place before it loads); anything else goes.
    img: (tagName, attribs) => ({
      tagName,
      attribs: Object.fromEntries(
        Object.entries(attribs).filter(([name, value]) => (name !== 'width' && name !== 'height') || PIXELS.test(value)),
      ),
    }),
  },
  onOpenTag: (name) => {
    if (name === 'iframe') insideFrames++;
  },
  onCloseTag: (name) => {
    if (name === 'iframe') insideFrames--;
  },
  exclusiveFilter: (frame) =>
    insideFrames > 0 ||
    (frame.tag === 'img' && !allowedImageSource(frame.attribs.src ?? '')) ||
    (frame.tag === 'iframe' && !frame.attribs.src),
};

export function sanitizeBlogHtml(html: string): string {
  insideFrames = 0;
  return sanitizeHtml(html, OPTIONS);
}
