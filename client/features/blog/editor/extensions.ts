/**
 * The editor's schema: every element a post may hold (shared/blog/sanitize.ts's allow-list), so a post written before
 * the editor opens in it as it was, and nothing else, so a paste keeps only that markup. Headings, paragraphs, lists,
 * quotes, code, bold, italic, underline, strike, links and line breaks come with StarterKit; here: pictures in the
 * text (as the old editor put them, in a paragraph), YouTube videos, sub- and superscript, and tables and figures kept
 * as they are.
 */
import { Extension, Mark, Node, mergeAttributes } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import Link from '@tiptap/extension-link';
import StarterKit from '@tiptap/starter-kit';
import { YOUTUBE_EMBED_ATTRIBUTES, youtubeEmbedSource } from '../../../../shared/blog/embeds';
import { isAllowedLink } from '../formatting';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    youtube: {
      /** Puts the video of a YouTube address at the cursor; does nothing for another address. */
      insertYoutube: (address: string) => ReturnType;
    };
  }
}

/** A YouTube player, stored as the sanitiser keeps it; in the editor a card naming it (no third-party frame for staff). */
export const Youtube = Node.create({
  name: 'youtube',
  group: 'block',
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return { src: { default: null }, title: { default: YOUTUBE_EMBED_ATTRIBUTES.title } };
  },
  parseHTML() {
    return [
      {
        tag: 'iframe',
        getAttrs: (element) => {
          const src = youtubeEmbedSource(element.getAttribute('src') ?? '');
          return src ? { src, title: element.getAttribute('title')?.trim() || YOUTUBE_EMBED_ATTRIBUTES.title } : false;
        },
      },
    ];
  },
  renderHTML({ node }) {
    return ['iframe', { ...YOUTUBE_EMBED_ATTRIBUTES, src: node.attrs.src as string, title: node.attrs.title as string }];
  },
  addNodeView() {
    return ({ node }) => {
      const dom = document.createElement('div');
      dom.className = 'blog-editor-video';
      dom.setAttribute('role', 'img');
      const src = node.attrs.src as string;
      dom.setAttribute('aria-label', `YouTube video ${src.split('/').at(-1)}`);
      dom.dataset.src = src;
      const label = document.createElement('span');
      label.textContent = `▶ YouTube video · ${src.split('/').at(-1)}`;
      dom.append(label);
      return { dom };
    };
  },
  addCommands() {
    return {
      insertYoutube:
        (address) =>
        ({ commands }) => {
          const src = youtubeEmbedSource(address);
          // Writing goes on in a paragraph under the video: after a block that holds no text, the cursor would have
          // nowhere to stand, and what is typed or pasted next would replace the video.
          return src ? commands.insertContent([{ type: this.name, attrs: { src } }, { type: 'paragraph' }]) : false;
        },
    };
  },
});

/** Tags and attributes a kept table or figure may hold (a subset of the sanitiser's list, which has the last word). */
const KEPT_TAGS = new Set([
  ...['table', 'thead', 'tbody', 'tr', 'th', 'td', 'figure', 'figcaption', 'img', 'p', 'br', 'a'],
  ...['strong', 'b', 'em', 'i', 'u', 's', 'del', 'sub', 'sup', 'code'],
]);
const KEPT_ATTRIBUTES: Record<string, string[]> = {
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
  img: ['src', 'width', 'height', 'alt', 'title'],
  a: ['href', 'target', 'rel'],
};

/** A copy of `element` with only the kept tags and attributes (others give their contents), built without parsing. */
function keptCopy(element: Element): Element {
  const copy = document.createElement(element.localName);
  for (const name of KEPT_ATTRIBUTES[element.localName] ?? []) {
    const value = element.getAttribute(name);
    if (value !== null) copy.setAttribute(name, value);
  }
  const append = (from: globalThis.Node, into: Element) => {
    for (const child of from.childNodes) {
      if (child.nodeType === 3) into.append(child.textContent ?? '');
      else if (child instanceof Element) {
        if (KEPT_TAGS.has(child.localName)) into.append(keptCopy(child));
        else if (!['script', 'style', 'template', 'iframe'].includes(child.localName)) append(child, into);
      }
    }
  };
  append(element, copy);
  return copy;
}

/**
 * A table or figure, which the editor has no tools for, kept as it is (cleaned) so saving does not lose it:
 * it can be moved or deleted as a whole, and its markup goes back out unchanged.
 */
export const KeptBlock = Node.create({
  name: 'keptBlock',
  group: 'block',
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return { html: { default: '' } };
  },
  parseHTML() {
    return ['table', 'figure'].map((tag) => ({
      tag,
      getAttrs: (element: HTMLElement) => ({ html: keptCopy(element).outerHTML }),
    }));
  },
  renderHTML({ node }) {
    // Read into an inert document: nothing in it runs or loads until it is put in the page, and then only what keptCopy kept.
    const inert = document.implementation.createHTMLDocument('');
    inert.body.innerHTML = node.attrs.html as string;
    const element = inert.body.firstElementChild;
    return element ? keptCopy(element) : ['p'];
  },
});

/** Sub- and superscript, which the blog keeps (H<sub>2</sub>O, x<sup>2</sup>). */
const Subscript = Mark.create({
  name: 'subscript',
  excludes: 'superscript',
  parseHTML: () => [{ tag: 'sub' }],
  renderHTML: ({ HTMLAttributes }) => ['sub', mergeAttributes(HTMLAttributes), 0],
});
const Superscript = Mark.create({
  name: 'superscript',
  excludes: 'subscript',
  parseHTML: () => [{ tag: 'sup' }],
  renderHTML: ({ HTMLAttributes }) => ['sup', mergeAttributes(HTMLAttributes), 0],
});

/** A picture in the text, with its size (so the page keeps its place) and alt text, attributes in the old editor's order. */
const Picture = Image.extend({
  renderHTML({ node }) {
    const { src, width, height, alt, title } = node.attrs as Record<string, string | number | null>;
    const attributes = Object.entries({ src, width, height, alt, title }).filter(([, value]) => value !== null && value !== undefined);
    return ['img', Object.fromEntries(attributes)];
  },
}).configure({ inline: true, allowBase64: false });

/** Ctrl/Cmd+K asks for a link's address (the editor's own dialog). */
const LinkShortcut = (onLink: () => void) =>
  Extension.create({
    name: 'linkShortcut',
    addKeyboardShortcuts: () => ({
      'Mod-k': () => {
        // After the selection changes the browser has queued (Shift+arrows just before) have reached the editor.
        setTimeout(onLink, 0);
        return true;
      },
    }),
  });

export function blogExtensions(onLink: () => void) {
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3, 4, 5, 6] },
      // Below, with its end not taking in what is typed after it.
      link: false,
    }),
    // Typing at a link's end writes plain text after it (with autolink on, TipTap's link would grow instead).
    Link.extend({ inclusive: () => false }).configure({
      openOnClick: false,
      autolink: true,
      linkOnPaste: true,
      defaultProtocol: 'https',
      protocols: ['mailto'],
      // The schemes the sanitiser keeps, and the site's own addresses.
      isAllowedUri: (url) => isAllowedLink(url) || /^\/(?!\/)/u.test(url),
      // What the sanitiser adds (rel) or keeps as it was written (target) is not added here.
      HTMLAttributes: { target: null, rel: null, class: null },
    }),
    Picture,
    Youtube,
    KeptBlock,
    Subscript,
    Superscript,
    LinkShortcut(onLink),
  ];
}
