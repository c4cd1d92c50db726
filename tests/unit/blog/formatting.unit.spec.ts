import { describe, expect, it } from 'vitest';
import { altFromFileName, applyFormat, insertImage, isAllowedLink, type Format } from '../../../client/features/blog/formatting';
import { sanitizeBlogHtml } from '../../../shared/blog/sanitize';

/** Applies a format to the part of `marked` between the brackets: "a [b] c". */
function format(marked: string, kind: Format, href?: string) {
  const start = marked.indexOf('[');
  const end = marked.indexOf(']') - 1;
  const content = marked.replace('[', '').replace(']', '');
  const edit = applyFormat(content, start, end, kind, href);
  return `${edit.content.slice(0, edit.selectionStart)}[${edit.content.slice(edit.selectionStart, edit.selectionEnd)}]${edit.content.slice(edit.selectionEnd)}`;
}

describe('applyFormat', () => {
  it('wraps the selection inline and keeps it selected', () => {
    expect(format('The [tower] fell', 'bold')).toBe('The <strong>[tower]</strong> fell');
    expect(format('The [tower] fell', 'italic')).toBe('The <em>[tower]</em> fell');
  });

  it('puts an empty element at the cursor, ready for typing', () => {
    expect(format('Say []', 'bold')).toBe('Say <strong>[]</strong>');
    expect(format('[]', 'heading')).toBe('<h2>[]</h2>');
  });

  it('puts blocks on lines of their own', () => {
    expect(format('<p>One</p>[Two]<p>Three</p>', 'subheading')).toBe('<p>One</p>\n<h3>[Two]</h3>\n<p>Three</p>');
    expect(format('<p>One</p>\n[ Two ]\n', 'quote')).toBe('<p>One</p>\n<blockquote>[Two]</blockquote>\n');
    expect(format('[Story]', 'paragraph')).toBe('<p>[Story]</p>');
  });

  it('turns each selected line into a list item, skipping blank lines', () => {
    expect(format('[AM\n\n FM \nTV]', 'bulleted')).toBe('<ul>\n[  <li>AM</li>\n  <li>FM</li>\n  <li>TV</li>]\n</ul>');
    expect(format('[]', 'numbered')).toBe('<ol>\n  <li>[]</li>\n</ol>');
  });

  it('links the selection, or the address itself, escaping it for the attribute', () => {
    expect(format('See [the archive]', 'link', ' https://archive.example/a?b=1&c="2" ')).toBe(
      'See <a href="https://archive.example/a?b=1&amp;c=&quot;2&quot;">[the archive]</a>',
    );
    expect(format('See []', 'link', 'https://archive.example/<x>')).toBe(
      'See <a href="https://archive.example/&lt;x&gt;">[https://archive.example/&lt;x&gt;]</a>',
    );
  });

  it('produces HTML the server keeps as it is', () => {
    let content = 'Tower\nAM\nFM\nOld days\nour collection';
    const apply = (text: string, kind: Format, href?: string) => {
      const start = content.indexOf(text);
      content = applyFormat(content, start, start + text.length, kind, href).content;
    };
    apply('Tower', 'heading');
    apply('AM\nFM', 'bulleted');
    apply('Old days', 'quote');
    apply('our collection', 'link', 'https://archive.example/?a=1&b=2');
    apply('collection', 'italic');
    expect(sanitizeBlogHtml(content).replace(/ rel="noopener noreferrer"/g, '')).toBe(content);
  });
});

describe('isAllowedLink', () => {
  it('accepts web and mail addresses and refuses scripts and relative ones', () => {
    for (const ok of ['https://example.org', 'http://example.org/a', 'mailto:editor@example.org']) expect(isAllowedLink(ok)).toBe(true);
    for (const bad of ['javascript:alert(1)', '/blog/1', 'example.org', 'https://', 'data:text/html,x', ' '])
      expect(isAllowedLink(bad)).toBe(false);
  });
});

describe('insertImage', () => {
  const image = { src: '/media/0b6d7c1e-2a3b-4c5d-8e9f-0123456789ab/blog.webp', width: 1600, height: 1067, alt: 'The "big" tower <1962>' };
  const tag =
    '<p><img src="/media/0b6d7c1e-2a3b-4c5d-8e9f-0123456789ab/blog.webp" width="1600" height="1067" alt="The &quot;big&quot; tower &lt;1962&gt;" /></p>';

  it('puts the picture on lines of its own at the cursor, with its size and escaped alt text, the cursor after it', () => {
    const edit = insertImage('<p>a</p><p>b</p>', 8, 8, image);
    expect(edit.content).toBe(`<p>a</p>\n${tag}\n<p>b</p>`);
    expect(edit.selectionStart).toBe(`<p>a</p>\n${tag}`.length);
    expect(edit.selectionEnd).toBe(edit.selectionStart);
    expect(insertImage('', 0, 0, image).content).toBe(tag);
    expect(insertImage('old', 0, 3, image).content).toBe(tag);
  });

  it('is kept whole by the sanitiser', () => {
    expect(sanitizeBlogHtml(insertImage('', 0, 0, image).content)).toBe(tag);
  });

  it('offers the file name without its extension as alt text', () => {
    expect(altFromFileName('wave-tower_1962.jpg')).toBe('wave tower 1962');
    expect(altFromFileName('Control room.final.png')).toBe('Control room.final');
    expect(altFromFileName('photo')).toBe('photo');
  });
});
