/**
 * The blog's rich-text editor in a real browser: staff write with its toolbar, its Markdown shortcuts and its
 * keyboard shortcuts, put in a picture with alt text and a YouTube video, paste from Word and keep only clean
 * markup; readers see it all on the public post page. A post written before the editor opens and saves unchanged,
 * and a member's pages never load the editor's chunk.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { Browser as Http, registerMember } from '../support/http';
import { accessibilityViolations, newContext, openAs, person, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;
let admin: Http;
let staff: Page;
/** Every address the staff's browser asked for. */
const staffRequests: string[] = [];

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  admin = (await registerMember(site.url)).browser;
  const opened = await openAs(browser, site.url, person('Edith', 'Editor'));
  staff = opened.page;
  opened.context.on('request', (request) => staffRequests.push(request.url()));
  const { id } = await staff.evaluate(() => fetch('/api/auth/user').then((response) => response.json() as Promise<{ id: string }>));
  expect((await admin.put(`/api/admin/users/${id}/role`, { role: 'staff' })).status).toBe(200);
});

const EDITOR_CHUNK = /\/assets\/rich-text-editor-[\w-]+\.js$/u;
const dialog = () => staff.getByRole('dialog', { name: /Blog Post/u });
const editor = () => dialog().getByRole('textbox', { name: 'Content' });
const tool = (name: string) => dialog().getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name, exact: true });

async function storedContent(title: string): Promise<{ id: string; slug: string; content: string }> {
  const { body } = await admin.get<{ items: { id: string; slug: string; title: string; content: string }[] }>('/api/admin/blog');
  const post = body.items.find((item) => item.title === title);
  expect(post, title).toBeDefined();
  return post!;
}

/** What Word puts on the clipboard: Office namespaces, a style sheet, mso styles, classes, spans, o:p and a typed bullet. */
const FROM_WORD = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>p.MsoNormal{margin:0cm}</style></head><body>
<!--StartFragment--><p class=MsoNormal style='margin-bottom:0cm;mso-line-height-rule:exactly'><span lang=EN-GB style='font-size:12.0pt;font-family:"Calibri",sans-serif;color:#C00000;mso-bidi-font-family:Arial'>Recorded by <b>Edith</b> in <span class=SpellE><i>Studio</i></span> B<o:p></o:p></span></p>
<p class=MsoNormal><o:p>&nbsp;</o:p></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-GB>Reel-to-reel tapes<o:p></o:p></span></p><!--EndFragment--></body></html>`;

describe('the blog editor', () => {
  it('writes a post with the toolbar, Markdown and keyboard shortcuts, a picture, a video and a paste from Word; readers see it', async () => {
    await staff.setViewportSize({ width: 1366, height: 900 });
    await staff.goto('/admin/blog');
    await staff.getByRole('button', { name: 'New Blog Post' }).click();
    await dialog().getByLabel('Title').fill('Voices of the night shift');
    await editor().click();
    expect(staffRequests.some((address) => EDITOR_CHUNK.test(address))).toBe(true);

    // Markdown shortcuts as one types.
    await staff.keyboard.type('## The night studio');
    await staff.keyboard.press('Enter');
    await staff.keyboard.type('Three of us kept the station ');
    await staff.keyboard.press('Control+b');
    await staff.keyboard.type('on air');
    expect(await tool('Bold').getAttribute('aria-pressed')).toBe('true');
    await staff.keyboard.press('Control+b');
    await staff.keyboard.type(' until dawn.');
    expect(await tool('Bold').getAttribute('aria-pressed')).toBe('false');
    await staff.keyboard.press('Enter');
    await staff.keyboard.type('- Records');
    await staff.keyboard.press('Enter');
    await staff.keyboard.type('Weather');
    expect(await tool('Bulleted list').getAttribute('aria-pressed')).toBe('true');
    await staff.keyboard.press('Enter');
    await staff.keyboard.press('Enter');
    await staff.keyboard.type('> Never a silent minute.');
    await staff.keyboard.press('Enter');
    await staff.keyboard.press('Enter');
    // The toolbar: the paragraph becomes a subheading.
    await staff.keyboard.type('Listeners wrote in');
    await tool('H3 subheading').click();
    expect(await tool('H3 subheading').getAttribute('aria-pressed')).toBe('true');
    await editor().getByRole('heading', { level: 3, name: 'Listeners wrote in' }).waitFor();
    await staff.keyboard.press('End');
    await staff.keyboard.press('Enter');

    // A link from the keyboard alone: select, Ctrl+K, type the address, Enter.
    await staff.keyboard.type('See the station archive');
    // Once the editor has taken the typing in (a frame), the words are selected from the keyboard.
    await staff.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    for (let i = 0; i < 'the station archive'.length; i++) await staff.keyboard.press('Shift+ArrowLeft');
    expect(await staff.evaluate(() => document.getSelection()?.toString())).toBe('the station archive');
    await staff.keyboard.press('Control+k');
    const address = staff.getByRole('dialog', { name: 'Add link' }).getByLabel('Link address');
    await address.waitFor();
    expect(await address.evaluate((input) => input === document.activeElement)).toBe(true);
    await staff.keyboard.press('Control+a');
    await staff.keyboard.type('javascript:alert(1)');
    await staff.keyboard.press('Enter');
    await staff.getByText('Enter an address starting with https://, http:// or mailto:').waitFor();
    await staff.keyboard.press('Control+a');
    await staff.keyboard.type('https://archive.example/night');
    await staff.keyboard.press('Enter');
    await editor().getByRole('link', { name: 'the station archive' }).waitFor();
    await writingInEditor();
    // Inside the link its tool is pressed; writing goes on after it, not in it.
    await staff.keyboard.press('ArrowLeft');
    await expect.poll(() => tool('Link').getAttribute('aria-pressed')).toBe('true');
    await staff.keyboard.press('End');
    await staff.keyboard.type(', open by night');
    expect(await tool('Link').getAttribute('aria-pressed')).toBe('false');
    await staff.keyboard.press('End');
    await staff.keyboard.press('Enter');

    // A picture from an upload, with its alt text.
    const chooser = staff.waitForEvent('filechooser');
    await tool('Picture').click();
    await (await chooser).setFiles({
      name: 'tower-at-night.jpg',
      mimeType: 'image/jpeg',
      buffer: await sharp({ create: { width: 2400, height: 1600, channels: 3, background: { r: 20, g: 30, b: 60 } } })
        .jpeg()
        .toBuffer(),
    });
    const alt = staff.getByRole('dialog', { name: 'Add a picture' }).getByLabel('Alt text');
    await alt.waitFor();
    expect(await alt.inputValue()).toBe('tower at night');
    await alt.fill('The tower at night');
    await alt.press('Enter');
    await editor().getByRole('img', { name: 'The tower at night' }).waitFor();
    // The dialog gives focus back to the text, though the toolbar opened it.
    await writingInEditor();

    // A YouTube video from its address.
    await tool('YouTube video').click();
    const video = staff.getByRole('dialog', { name: 'Add a YouTube video' }).getByLabel('Video address');
    await video.fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s');
    await video.press('Enter');
    await editor().getByRole('img', { name: 'YouTube video dQw4w9WgXcQ' }).waitFor();

    // A paste from Word, at the end.
    await editor().press('Control+End');
    await editor().evaluate((box, html) => {
      const data = new DataTransfer();
      data.setData('text/html', html);
      data.setData('text/plain', 'Recorded by Edith in Studio B\n\nReel-to-reel tapes');
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, FROM_WORD);
    await editor().getByText('Reel-to-reel tapes').waitFor();

    await editor().evaluate((box) => box.closest('.overflow-y-auto')?.scrollTo(0, 0));
    await screenshot(staff, 'blog-editor-1366');
    expect(await accessibilityViolations(staff)).toEqual([]);
    await staff.setViewportSize({ width: 390, height: 844 });
    await dialog().getByRole('toolbar', { name: 'Formatting' }).scrollIntoViewIfNeeded();
    await screenshot(staff, 'blog-editor-390');
    await staff.setViewportSize({ width: 1366, height: 900 });

    await dialog().getByRole('button', { name: 'Create Post' }).click();
    await staff.getByText('Blog post created successfully').waitFor();
    const post = await storedContent('Voices of the night shift');
    expect(post.content).toMatch(
      new RegExp(
        `^${escape(
          [
            '<h2>The night studio</h2>',
            '<p>Three of us kept the station <strong>on air</strong> until dawn.</p>',
            '<ul><li>Records</li><li>Weather</li></ul>',
            '<blockquote>Never a silent minute.</blockquote>',
            '<h3>Listeners wrote in</h3>',
            '<p>See <a href="https://archive.example/night" rel="noopener noreferrer">the station archive</a>, open by night</p>',
          ].join('\n'),
        )}\n<p><img src="/media/[0-9a-f-]{36}/blog\\.webp" width="1600" height="1067" alt="The tower at night" /></p>\n${escape(
          [
            '<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="YouTube video" width="560" height="315" allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen" allowfullscreen loading="lazy" referrerpolicy="strict-origin-when-cross-origin"></iframe>',
            '<p>Recorded by <strong>Edith</strong> in <em>Studio</em> B</p>',
            '<ul><li>Reel-to-reel tapes</li></ul>',
          ].join('\n'),
        )}$`,
        'u',
      ),
    );
    expect(post.content).not.toMatch(/style|class|span|mso|o:p|·/u);

    // Published, the post's public page shows it all to a visitor.
    await staff.getByRole('listitem', { name: 'Voices of the night shift' }).getByRole('button', { name: 'Publish', exact: true }).click();
    await staff.getByText('Blog post published').waitFor();
    const visitor = await newContext(browser, site.url);
    // No third party here: the player's page is answered locally.
    await visitor.route('https://www.youtube-nocookie.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<p>player</p>' }),
    );
    try {
      const reader = await visitor.newPage();
      await reader.goto(`/blog/${post.slug}`);
      const article = reader.locator('.blog-content');
      await article.getByRole('heading', { level: 2, name: 'The night studio' }).waitFor();
      await article.getByRole('heading', { level: 3, name: 'Listeners wrote in' }).waitFor();
      expect(await article.locator('ul').first().getByRole('listitem').allTextContents()).toEqual(['Records', 'Weather']);
      await article.locator('blockquote', { hasText: 'Never a silent minute.' }).waitFor();
      await article.getByRole('link', { name: 'the station archive' }).waitFor();
      await article.getByRole('img', { name: 'The tower at night' }).waitFor();
      const player = article.locator('iframe[title="YouTube video"]');
      expect(await player.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
      // The player takes the text's width, 16:9.
      const box = (await player.boundingBox())!;
      expect(Math.round((box.width / box.height) * 9)).toBe(16);
    } finally {
      await visitor.close();
    }
  });

  it('opens a post written before it and saves it unchanged', async () => {
    const written = [
      '<h2>Steel and wire</h2>',
      '<p>The crews worked through <em>two</em> winters; see <a href="https://archive.example/towers" rel="noopener noreferrer"><strong>the plans</strong></a> and <a href="mailto:archive@example.org" target="_blank" rel="noopener noreferrer">write to us</a>.<br />H<sub>2</sub>O, x<sup>2</sup>, <u>underlined</u>, <s>struck</s>, <code>AM 1020</code>.</p>',
      '<ul>\n  <li>The all-night record show</li>\n  <li>The <strong>farm report</strong> at five</li>\n</ul>',
      '<ol><li>First</li><li>Second<ul><li>Nested</li></ul></li></ol>',
      '<blockquote>Old days</blockquote>',
      '<h4>Small print</h4>',
      '<pre><code>let power = 50000;\n  tower.on();</code></pre>',
      '<hr />',
      '<p><img src="https://img.example.org/tower.png" width="640" height="480" alt="The tower" /></p>',
      '<figure><img src="https://img.example.org/hall.png" alt="The hall" title="1962" /><figcaption>The hall, <em>1962</em></figcaption></figure>',
      '<table><thead><tr><th colspan="2">Stations</th></tr></thead><tbody><tr><td>WXYZ</td><td rowspan="2">1020</td></tr></tbody></table>',
      '<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="The tower film" width="560" height="315" allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen" allowfullscreen loading="lazy" referrerpolicy="strict-origin-when-cross-origin"></iframe>',
      '<p>The end.</p>',
    ].join('\n');
    const created = await admin.post('/api/blog', { title: 'Towers of 1948', excerpt: '', content: written, mediaId: null });
    expect(created.status).toBe(201);
    const before = await storedContent('Towers of 1948');

    await staff.goto('/admin/blog');
    await staff.getByRole('listitem', { name: 'Towers of 1948' }).getByRole('button', { name: 'Edit' }).click();
    await editor().getByRole('heading', { level: 2, name: 'Steel and wire' }).waitFor();
    await editor().getByRole('table').waitFor();
    await screenshot(staff, 'blog-editor-older-post-1366');
    // A change and its undoing, so what is saved is the editor's own HTML, not the text it was given.
    await editor().getByText('The end.').click();
    await staff.keyboard.press('End');
    await staff.keyboard.type('!');
    await staff.keyboard.press('Backspace');
    await dialog().getByRole('button', { name: 'Update Post' }).click();
    await staff.getByText('Blog post updated successfully').waitFor();
    const after = await storedContent('Towers of 1948');
    // Only the whitespace between blocks may differ (the old editor indented list items).
    expect(blocksApart(after.content)).toBe(blocksApart(before.content));
    expect(after.content).toContain('<ul><li>The all-night record show</li><li>The <strong>farm report</strong> at five</li></ul>');
  });

  it('is never loaded by a member’s pages', async () => {
    const { context, page } = await openAs(browser, site.url, person('Rita', 'Reader'));
    await context.route('https://www.youtube-nocookie.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<p>player</p>' }),
    );
    const asked: string[] = [];
    context.on('request', (request) => asked.push(request.url()));
    try {
      await page.goto('/');
      await page.getByRole('heading', { name: 'Broadcast History Newsfeed' }).waitFor();
      await page.goto('/blog');
      await page.getByRole('article', { name: 'Voices of the night shift' }).waitFor();
      await page
        .getByRole('article', { name: 'Voices of the night shift' })
        .getByRole('link', { name: /Read full post/u })
        .click();
      await page.getByRole('heading', { level: 2, name: 'The night studio' }).waitFor();
      await page.waitForLoadState('load');
      expect(asked.filter((address) => address.includes('/assets/')).length).toBeGreaterThan(0);
      expect(asked.filter((address) => EDITOR_CHUNK.test(address))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** Waits until focus is back in the editor's text (a closing dialog gives it back). */
async function writingInEditor() {
  await expect.poll(() => editor().evaluate((box) => box === document.activeElement)).toBe(true);
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');
}

/** HTML with no whitespace next to a block's tags. */
function blocksApart(html: string) {
  return html.replace(
    /\s*(<\/?(?:p|h[1-6]|ul|ol|li|blockquote|pre|hr|figure|figcaption|table|thead|tbody|tr|th|td|iframe)\b[^>]*>)\s*/gu,
    '$1',
  );
}
