import { describe, expect, it } from 'vitest';
import { BLOG_ALLOWED_ATTRIBUTES, BLOG_ALLOWED_TAGS, sanitizeBlogHtml } from '../../../shared/blog/sanitize';
import { XSS_VECTORS } from './xss-vectors';

const TAG = /<(\/?)([a-z0-9]+)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)\s*\/?>/gu;
/** One attribute after another from the start (sticky), so a word inside a value is never taken for a name. */
const ATTRIBUTE = /\s+([a-z-]+)(?:="([^"]*)")?/guy;

/** Checks the output as a browser would see it: only allowed tags and attributes, and only safe URLs. */
function expectHarmless(html: string) {
  expect(html).not.toMatch(/<script/iu);
  expect(html).not.toMatch(/\son\w+\s*=/iu);
  expect(html).not.toMatch(/(?:java|vb|live)script\s*:|data\s*:/iu);
  expect(html).not.toMatch(/<!|<\?/u);
  for (const [, , name = '', attributes = ''] of html.matchAll(TAG)) {
    expect(BLOG_ALLOWED_TAGS, `tag <${name}>`).toContain(name);
    for (const [, attribute = '', value = ''] of attributes.matchAll(ATTRIBUTE)) {
      expect(BLOG_ALLOWED_ATTRIBUTES[name] ?? [], `attribute ${attribute} on <${name}>`).toContain(attribute);
      if (attribute === 'src') expect(value).toMatch(/^(?:https:\/\/|\/media\/[0-9a-f-]{36}\/[a-z0-9-]+\.(?:webp|jpg|png)$)/u);
      if (attribute === 'width' || attribute === 'height') expect(value).toMatch(/^[1-9][0-9]*$/u);
      if (attribute === 'href') expect(value).toMatch(/^(?:https?:|mailto:|\/(?!\/)|#|[^:]*$)/u);
      if (attribute === 'target') expect(value).toBe('_blank');
      if (attribute === 'rel') expect(value).toBe('noopener noreferrer');
      if (name === 'iframe' && attribute === 'src') expect(value).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/[\w-]{11}$/u);
    }
  }
  // Every '<' left must open one of the tags checked above; text is escaped.
  expect(html.replace(TAG, '')).not.toContain('<');
}

describe('sanitizeBlogHtml against hostile input', () => {
  it(`has a broad list of vectors (${XSS_VECTORS.length})`, () => {
    expect(XSS_VECTORS.length).toBeGreaterThan(100);
  });

  it('allows no element or attribute that runs, loads or submits anything of its own', () => {
    for (const tag of ['script', 'style', 'object', 'embed', 'form', 'input', 'svg', 'math', 'base', 'link', 'meta', 'frame']) {
      expect(BLOG_ALLOWED_TAGS).not.toContain(tag);
    }
    for (const [tag, names] of Object.entries(BLOG_ALLOWED_ATTRIBUTES)) {
      expect(BLOG_ALLOWED_TAGS).toContain(tag);
      for (const name of names) expect(name).not.toMatch(/^(?:on|style$|srcdoc$|formaction$)/u);
    }
  });

  it.each(XSS_VECTORS)('defuses %s', (vector) => {
    expectHarmless(sanitizeBlogHtml(vector));
  });

  it('defuses every vector embedded inside allowed markup too', () => {
    for (const vector of XSS_VECTORS) {
      expectHarmless(sanitizeBlogHtml(`<p><a href="https://ok.example">before</a>${vector}<strong>after</strong></p>`));
    }
  });

  it('stays harmless when sanitised output is sanitised again', () => {
    for (const vector of XSS_VECTORS) {
      const once = sanitizeBlogHtml(vector);
      expect(sanitizeBlogHtml(once)).toBe(once);
    }
  });
});

describe('sanitizeBlogHtml keeps what a blog post needs', () => {
  it('keeps headings, text formatting, lists, quotes, code, figures and tables', () => {
    const html =
      '<h2>Title</h2><p><strong>b</strong> <b>b</b> <em>i</em> <i>i</i> <u>u</u> <s>s</s> <del>d</del> H<sub>2</sub>O x<sup>2</sup><br /><code>x</code></p>' +
      '<blockquote>q</blockquote><pre>p</pre><hr /><ul><li>a</li></ul><ol><li>b</li></ol>' +
      '<figure><img src="https://img.example.org/tower.png" alt="Tower" title="1924" width="640" height="480" /><figcaption>c</figcaption></figure>' +
      '<table><thead><tr><th colspan="2">h</th></tr></thead><tbody><tr><td rowspan="2">d</td></tr></tbody></table>';
    expect(sanitizeBlogHtml(html)).toBe(html);
  });

  it('keeps http, https, mailto and same-site links, always with rel="noopener noreferrer"', () => {
    expect(sanitizeBlogHtml('<a href="https://example.org">a</a>')).toBe('<a href="https://example.org" rel="noopener noreferrer">a</a>');
    expect(sanitizeBlogHtml('<a href="http://example.org" rel="opener">a</a>')).toBe(
      '<a href="http://example.org" rel="noopener noreferrer">a</a>',
    );
    expect(sanitizeBlogHtml('<a href="mailto:editor@example.org">a</a>')).toBe(
      '<a href="mailto:editor@example.org" rel="noopener noreferrer">a</a>',
    );
    expect(sanitizeBlogHtml('<a href="/blog/123">a</a>')).toBe('<a href="/blog/123" rel="noopener noreferrer">a</a>');
  });
  it('keeps no link into the API (it would act with the reader’s session at a click)', () => {
    for (const href of [
      '/api/logout',
      '/API/logout',
      '../api/logout',
      '/./api/logout',
      '/%61pi/logout',
      'https://community.example/api/logout',
      '  /api/posts/1/like',
      '/api',
    ]) {
      expect(sanitizeBlogHtml(`<a href="${href}">out</a>`), href).toBe('<a rel="noopener noreferrer">out</a>');
    }
    expect(sanitizeBlogHtml('<a href="/apiary">bees</a>')).toBe('<a href="/apiary" rel="noopener noreferrer">bees</a>');
    expect(sanitizeBlogHtml('<p>x<img src="https://community.example/api/logout" alt="" /></p>')).toBe('<p>x</p>');
  });

  it('keeps target only as _blank', () => {
    expect(sanitizeBlogHtml('<a href="https://example.org" target="_blank">a</a>')).toBe(
      '<a href="https://example.org" target="_blank" rel="noopener noreferrer">a</a>',
    );
    expect(sanitizeBlogHtml('<a href="https://example.org" target="_parent">a</a>')).toBe(
      '<a href="https://example.org" rel="noopener noreferrer">a</a>',
    );
  });

  it('drops images whose source is not absolute https', () => {
    for (const src of ['http://img.example.org/a.png', '/uploads/a.png', '//img.example.org/a.png', 'data:image/png;base64,AAAA']) {
      expect(sanitizeBlogHtml(`<p>x<img src="${src}" alt="a" /></p>`)).toBe('<p>x</p>');
    }
  });

  it('keeps our own uploads’ pictures (/media/<id>/<file>) with their size and alt text, and nothing else of them', () => {
    const src = '/media/0b6d7c1e-2a3b-4c5d-8e9f-0123456789ab/blog.webp';
    expect(sanitizeBlogHtml(`<p><img src="${src}" width="1600" height="1200" alt="The tower" /></p>`)).toBe(
      `<p><img src="${src}" width="1600" height="1200" alt="The tower" /></p>`,
    );
    expect(
      sanitizeBlogHtml(
        `<img src="${src}" width="1600" height="1200" alt="a" onerror="alert(1)" onload="x()" style="color:red" class="c" loading="lazy" srcset="https://e.example/x.png 2x" />`,
      ),
    ).toBe(`<img src="${src}" width="1600" height="1200" alt="a" />`);
    expect(sanitizeBlogHtml(`<img src="${src}" width="100%" height="javascript:alert(1)" alt="a" />`)).toBe(`<img src="${src}" alt="a" />`);
    for (const other of [
      '/media/0b6d7c1e-2a3b-4c5d-8e9f-0123456789ab/../../api/logout',
      '/media/x/blog.webp',
      '/MEDIA/0b6d7c1e-2a3b-4c5d-8e9f-0123456789ab/blog.webp',
      ` ${src}`,
      `${src}?x=1`,
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
    ]) {
      expect(sanitizeBlogHtml(`<p>x<img src="${other}" alt="a" /></p>`), other).toBe('<p>x</p>');
    }
  });

  it('removes script and style together with their contents instead of escaping them', () => {
    expect(sanitizeBlogHtml('<p>a</p><script>alert(1)</script><style>p { color: red }</style><p>b</p>')).toBe('<p>a</p><p>b</p>');
  });

  it('drops other tags and attributes but keeps their text', () => {
    expect(sanitizeBlogHtml('<div class="x" style="color:red"><span id="y">hello</span></div>')).toBe('hello');
  });

  it('keeps a YouTube video as the privacy-enhanced player, always in the same form, and no other frame', () => {
    const player = (id: string, title = 'YouTube video') =>
      `<iframe src="https://www.youtube-nocookie.com/embed/${id}" title="${title}" width="560" height="315" allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen" allowfullscreen loading="lazy" referrerpolicy="strict-origin-when-cross-origin"></iframe>`;
    expect(sanitizeBlogHtml(player('dQw4w9WgXcQ', 'The tower film'))).toBe(player('dQw4w9WgXcQ', 'The tower film'));
    expect(sanitizeBlogHtml(player('dQw4w9WgXcQ'))).toBe(player('dQw4w9WgXcQ'));
    // Other YouTube addresses become the player's; its own attributes replace the author's.
    expect(
      sanitizeBlogHtml(
        '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1" width="1" onload="x()" style="display:none" srcdoc="<b>x</b>" sandbox="" title=" "></iframe>',
      ),
    ).toBe(player('dQw4w9WgXcQ'));
    expect(sanitizeBlogHtml('<iframe src="https://youtu.be/dQw4w9WgXcQ"></iframe>')).toBe(player('dQw4w9WgXcQ'));
    for (const src of [
      'https://evil.example/embed/dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com.evil.example/embed/dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/short',
      'http://www.youtube-nocookie.com/embed/dQw4w9WgXcQ/../../x',
      'javascript:alert(1)',
      '/api/logout',
      '',
    ]) {
      expect(sanitizeBlogHtml(`<iframe src="${src}">text</iframe><p>after</p>`), src).toBe('<p>after</p>');
    }
    expect(sanitizeBlogHtml('<iframe>text</iframe>')).toBe('');
  });

  it('keeps nothing inside a frame (a browser reads it as text, the sanitiser as elements)', () => {
    expect(
      sanitizeBlogHtml(
        '<iframe src="https://youtu.be/dQw4w9WgXcQ">a<iframe src="https://youtu.be/dQw4w9WgXcQ"><b>b</b></iframe><p title="</iframe><img src=x onerror=alert(1)>">c</p></iframe><p>after</p>',
      ),
    ).toBe(`${sanitizeBlogHtml('<iframe src="https://youtu.be/dQw4w9WgXcQ"></iframe>')}<p>after</p>`);
    // An unclosed frame takes nothing with it either, and the next call starts afresh.
    expect(sanitizeBlogHtml('<p>x</p><iframe src="https://youtu.be/dQw4w9WgXcQ"><p>in')).toMatch(/^<p>x<\/p><iframe [^>]+><\/iframe>$/u);
    expect(sanitizeBlogHtml('<p>next</p>')).toBe('<p>next</p>');
  });

  it('escapes text that looks like markup', () => {
    expect(sanitizeBlogHtml('<p>1 < 2 & 3 > 2</p>')).toBe('<p>1 &lt; 2 &amp; 3 &gt; 2</p>');
  });
});
