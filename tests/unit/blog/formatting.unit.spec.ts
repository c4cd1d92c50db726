import { describe, expect, it } from 'vitest';
import { altFromFileName, isAllowedLink, postHtml, tightenBlock } from '../../../client/features/blog/formatting';
import { cleanWordHtml } from '../../../client/features/blog/editor/word-paste';
import { sanitizeBlogHtml } from '../../../shared/blog/sanitize';

describe('isAllowedLink', () => {
  it('accepts web and mail addresses only', () => {
    for (const href of ['https://archive.example/a', 'http://archive.example', ' https://x.example ', 'mailto:editor@example.org']) {
      expect(isAllowedLink(href), href).toBe(true);
    }
    for (const href of [
      '',
      'https://',
      'javascript:alert(1)',
      'data:text/html,x',
      'ftp://x.example',
      'mailto:',
      'archive.example',
      '//x.example',
    ]) {
      expect(isAllowedLink(href), href).toBe(false);
    }
  });
});

describe('altFromFileName', () => {
  it('offers the file name as words', () => {
    expect(altFromFileName('transmitter-hall_1962.jpg')).toBe('transmitter hall 1962');
    expect(altFromFileName('IMG 0001.HEIC')).toBe('IMG 0001');
    expect(altFromFileName('.jpg')).toBe('');
  });
});

describe('the editor’s HTML', () => {
  it('writes a list item’s or quote’s single paragraph without its <p>, as posts have always had them', () => {
    expect(tightenBlock('<ul><li><p>AM</p></li><li><p>F<strong>M</strong></p><ul><li><p>nested</p></li></ul></li></ul>')).toBe(
      '<ul><li>AM</li><li>F<strong>M</strong><ul><li>nested</li></ul></li></ul>',
    );
    expect(tightenBlock('<blockquote><p>Old days</p></blockquote>')).toBe('<blockquote>Old days</blockquote>');
  });

  it('keeps paragraphs where there are more than one', () => {
    expect(tightenBlock('<ul><li><p>one</p><p>two</p></li></ul>')).toBe('<ul><li><p>one</p><p>two</p></li></ul>');
    expect(tightenBlock('<blockquote><p>one</p><p>two</p></blockquote>')).toBe('<blockquote><p>one</p><p>two</p></blockquote>');
    expect(tightenBlock('<p>text</p>')).toBe('<p>text</p>');
  });

  it('puts a block on each line, without empty paragraphs at the end, and nothing for an empty post', () => {
    expect(postHtml(['<h2>Tower</h2>', '<p>Built in 1948.</p>', '<p></p>', '<p></p>'])).toBe('<h2>Tower</h2>\n<p>Built in 1948.</p>');
    expect(postHtml(['<p></p>'])).toBe('');
    expect(postHtml(['<p></p>', '<p>x</p>'])).toBe('<p></p>\n<p>x</p>');
  });

  it('is HTML the server keeps as it is', () => {
    const html = postHtml(['<h2>Tower</h2>', '<ul><li><p>AM</p></li></ul>', '<blockquote><p>Old days</p></blockquote>']);
    expect(sanitizeBlogHtml(html)).toBe(html);
  });
});

/** What Word puts on the clipboard for a heading-like bold line, an empty line, a bulleted and a numbered list. */
const WORD_CLIPBOARD = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word">
<head><meta name=Generator content="Microsoft Word 15"><style>p.MsoNormal{margin:0cm;font-family:"Calibri"}</style></head>
<body lang=EN-GB style='tab-interval:36.0pt'><!--StartFragment-->
<p class=MsoNormal><b><span style='font-size:14.0pt;mso-bidi-font-size:11.0pt'>The tower<o:p></o:p></span></b></p>
<p class=MsoNormal><o:p>&nbsp;</o:p></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-GB>AM<o:p></o:p></span></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>·<span>&nbsp; </span></span><![endif]>FM</p>
<p class=MsoListParagraph style='mso-list:l1 level1 lfo2'><!--[if !supportLists]--><span style='mso-list:Ignore'>1.<span>&nbsp; </span></span><!--[endif]-->First</p>
<p class=MsoListParagraph style='mso-list:l1 level1 lfo2'><!--[if !supportLists]--><span style='mso-list:Ignore'>2.<span>&nbsp; </span></span><!--[endif]-->Second</p>
<!--[if gte vml 1]><v:shape id="x"><v:imagedata src="file:///C:/x.png"/></v:shape><![endif]-->
<p class=MsoNormal><i>Old</i> days<w:sdt>!</w:sdt></p><!--EndFragment--></body></html>`;

describe('cleanWordHtml', () => {
  it('takes out Word’s hidden markup, typed bullets and numbers and spacing paragraphs, and makes its lists lists', () => {
    const cleaned = cleanWordHtml(WORD_CLIPBOARD);
    for (const hidden of ['<style', '<meta', '<head', 'o:p', '<!--', '<![if', 'v:shape', 'w:sdt', 'file:///', '·', '&nbsp;']) {
      expect(cleaned, hidden).not.toContain(hidden);
    }
    expect(cleaned).not.toMatch(/>\s*[12]\./u);
    expect(cleaned).toContain('<ul><li><span lang=EN-GB>AM</span></li><li>FM</li></ul><ol><li>First</li><li>Second</li></ol>');
    expect(cleaned).toContain("<p class=MsoNormal><b><span style='font-size:14.0pt;mso-bidi-font-size:11.0pt'>The tower</span></b></p>");
    expect(cleaned).toContain('<p class=MsoNormal><i>Old</i> days!</p>');
    // The sanitiser, like the editor's schema, then keeps only the allowed markup.
    expect(sanitizeBlogHtml(cleaned).replace(/>\s+</gu, '><').trim()).toBe(
      '<p><b>The tower</b></p><ul><li>AM</li><li>FM</li></ul><ol><li>First</li><li>Second</li></ol><p><i>Old</i> days!</p>',
    );
  });

  it('leaves other HTML as it came', () => {
    const html = '<p style="color:red"><span>Hello</span> <!-- note --></p>';
    expect(cleanWordHtml(html)).toBe(html);
  });
});
