/**
 * The public pages as a crawler or a link preview fetches them, without JavaScript: the landing page, a published
 * blog post and a public approved event carry their content, Open Graph and Twitter tags, a canonical address,
 * the feeds' links and JSON-LD with the properties search engines require; unpublished, private and unapproved
 * items appear in no page and in no sitemap.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { SESSION_COOKIE } from '../../server/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME_SCRIPT } from '../../server/http/security-headers';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerMember } from '../support/http';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { PublicPage } from '../../client/public-page';
import type { PublicPageProps } from '../../shared/public-pages/props';

let site: TestSite;
let admin: Browser;
let member: Browser;
let siteUrl: string;
let mediaDir: string;
const visitor = () => new Browser(site.url);
const items: Record<'published' | 'draft' | 'publicEvent' | 'virtualEvent' | 'privateEvent' | 'pendingEvent', string> = {} as never;

const inAWeek = (hours: number) => new Date(Date.now() + 7 * 24 * 3600 * 1000 + hours * 3600 * 1000).toISOString();

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'bhc-public-pages-'));
  site = await startTestSite({ MEDIA_DIR: mediaDir });
  siteUrl = site.services.config.publicUrl;
  admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  member = (await registerMember(site.url, { firstName: 'Mona', lastName: 'Member' })).browser;
  const post = async (title: string, isPublished: boolean) =>
    (
      await admin.post('/api/blog', {
        title,
        isPublished,
        tags: ['radio'],
        content: `<p>The night the transmitter at <strong>WHAS</strong> went dark &amp; came back.</p><p><img src="https://images.example.org/tower.jpg" alt="The tower"></p>`,
      })
    ).body.slug as string;
  // A post's page is at its slug (its id's address leads there: tests/api/blog/slugs.api.spec.ts).
  items.published = await post('When the Tower Fell </script><b>', true);
  items.draft = await post('A draft nobody may see', false);
  const event = async (who: Browser, fields: Record<string, unknown>) => {
    const response = await who.post('/api/events', {
      eventType: 'reunion',
      startDate: inAWeek(0),
      endDate: inAWeek(3),
      description: 'Bring your old station badges.\n\nCoffee at the door.',
      ...fields,
    });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };
  items.publicEvent = await event(admin, { title: 'WAVE Alumni Reunion', location: 'Louisville Palace, 625 S 4th St', maxAttendees: 40 });
  items.virtualEvent = await event(admin, {
    title: 'Airchecks Listening Night',
    isVirtual: true,
    virtualLink: 'https://meet.example.org/secret-room',
  });
  items.privateEvent = await event(admin, { title: 'Board-only Planning Session', isPublic: false });
  items.pendingEvent = await event(member, { title: 'Unapproved Memorial Plans' });
});
afterAll(async () => {
  await site?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

const unescapeHtml = (text: string) =>
  text.replace(/&(lt|gt|quot|#39|amp);/gu, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[name]!);
const metaContent = (html: string, attribute: 'property' | 'name', key: string) => {
  const value = html.match(new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`, 'u'))?.[1];
  return value === undefined ? undefined : unescapeHtml(value);
};
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/gu)].map(
    (match) => JSON.parse(match[1]!) as Record<string, any>,
  );
const prerendered = (html: string) => html.match(/<div id="prerendered">([\s\S]*?)<\/div>\s*<div id="root">/u)?.[1] ?? null;

/** The page's prerendered content, which must hold each of `texts`. */
function prerenderedWith(html: string, texts: string[]) {
  const content = prerendered(html)!;
  for (const text of texts) expect(content).toContain(text);
  return content;
}
/** The page's first JSON-LD item, which must be schema.org data of `type` with `fields`. */
function schemaOrg(html: string, type: string, fields: Record<string, unknown>) {
  const [data] = jsonLd(html);
  expect(data).toMatchObject({ '@context': 'https://schema.org', '@type': type, ...fields });
  return data!;
}

async function page(path: string, who = visitor()) {
  const response = await who.get(path);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  return { status: response.status, html: String(response.body) };
}

function expectPreviewTags(html: string, { title, path, image }: { title: string; path: string; image: string }) {
  expect(html).toContain(`<link rel="canonical" href="${siteUrl}${path}" />`);
  expect(metaContent(html, 'property', 'og:title')).toBe(title);
  expect(metaContent(html, 'property', 'og:url')).toBe(`${siteUrl}${path}`);
  expect(metaContent(html, 'property', 'og:image')).toBe(image);
  expect(metaContent(html, 'property', 'og:site_name')).toBe('Broadcast History Community');
  expect(metaContent(html, 'property', 'og:description')!.length).toBeGreaterThan(20);
  expect(metaContent(html, 'name', 'twitter:card')).toBe('summary_large_image');
  expect(metaContent(html, 'name', 'description')).toBe(metaContent(html, 'property', 'og:description'));
  // One title, the page's, and the feeds a reader can subscribe to.
  expect(html.match(/<title>/gu)).toHaveLength(1);
  expect(html).toContain('<link rel="alternate" type="application/rss+xml" title="Broadcast History Community blog" href="/rss" />');
  expect(html).toContain(
    '<link rel="alternate" type="text/calendar" title="Broadcast History Community events" href="/api/calendar.ics" />',
  );
}

/** The properties Google's rich results require or recommend for each type, each checked for a value of its kind. */
const isDate = (value: unknown) => typeof value === 'string' && !Number.isNaN(Date.parse(value));
const isUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\//u.test(value);

describe('the landing page', () => {
  it('carries its content, preview tags and Organization data for a visitor', async () => {
    const { status, html } = await page('/');
    expect(status).toBe(200);
    expectPreviewTags(html, { title: 'Broadcast History Community', path: '/', image: `${siteUrl}/og-image.png` });
    expect(html).toContain('<body data-prerendered>');
    prerenderedWith(html, ['The history of broadcasting in our state, kept by the people who lived it.', 'href="/privacy"']);
    const organization = schemaOrg(html, 'Organization', { name: 'Broadcast History Community', url: `${siteUrl}/` });
    expect(isUrl(organization.logo)).toBe(true);
  });

  it('paints without waiting for another file: the stylesheet inline, the app’s modules left to its entry', async () => {
    const { html } = await page('/');
    expect(html).toMatch(/<style>[^]*\.blog-content[^]*<\/style>/u);
    expect(html).not.toContain('rel="stylesheet"');
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/main-[^"]+\.js"><\/script>/u);
    // The theme script inline, and allowed by its hash: the one inline script the policy lets run.
    expect(html).toContain(`<script>${THEME_SCRIPT}</script>`);
    expect(html).not.toContain('src="/theme.js"');
    const response = await visitor().get('/');
    expect(response.headers.get('content-security-policy')).toContain(
      `script-src 'self' 'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`,
    );
  });

  it('is the app alone for a member: the newsfeed is theirs, not the landing page', async () => {
    const { status, html } = await page('/', member);
    expect(status).toBe(200);
    expect(prerendered(html)).toBeNull();
    expect(html).toContain('<body>');
    expect(html).toContain('rel="stylesheet"');
    expect(html).toContain('rel="modulepreload"');
  });
});

describe('a published blog post', () => {
  it('carries its text, preview tags with its own picture, and BlogPosting data', async () => {
    const { status, html } = await page(`/blog/${items.published}`);
    expect(status).toBe(200);
    const title = 'When the Tower Fell </script><b> | Broadcast History Community';
    expect(html).toContain('<title>When the Tower Fell &lt;/script&gt;&lt;b&gt; | Broadcast History Community</title>');
    expectPreviewTags(html, { title, path: `/blog/${items.published}`, image: 'https://images.example.org/tower.jpg' });
    expect(metaContent(html, 'property', 'og:type')).toBe('article');
    prerenderedWith(html, ['When the Tower Fell &lt;/script&gt;&lt;b&gt;</h1>', 'went dark &amp; came back.', 'Ada Admin']);
    const posting = schemaOrg(html, 'BlogPosting', {
      headline: 'When the Tower Fell </script><b>',
      author: { '@type': 'Person', name: 'Ada Admin' },
      keywords: 'radio',
      url: `${siteUrl}/blog/${items.published}`,
    });
    expect(isDate(posting.datePublished) && isDate(posting.dateModified)).toBe(true);
    expect(posting.image).toBe('https://images.example.org/tower.jpg');
    expect(posting.publisher).toMatchObject({ '@type': 'Organization', name: 'Broadcast History Community' });
    // The title's "</script>" is text inside the JSON, not the end of the script element.
    expect(html).toContain('When the Tower Fell \\u003c/script>\\u003cb>');
  });

  it('gives a member the same tags, and leaves the page to the app', async () => {
    const { status, html } = await page(`/blog/${items.published}`, member);
    expect(status).toBe(200);
    expect(jsonLd(html)[0]!['@type']).toBe('BlogPosting');
    expect(prerendered(html)).toBeNull();
  });

  it('is not found while a draft, and says nothing of it, to a visitor and to a member', async () => {
    for (const who of [visitor(), member]) {
      const { status, html } = await page(`/blog/${items.draft}`, who);
      expect(status).toBe(who === member ? 200 : 404);
      expect(html).not.toContain('A draft nobody may see');
      expect(jsonLd(html)).toEqual([]);
    }
    expect((await page('/blog/not-an-id')).status).toBe(404);
  });
});

describe('a public approved event', () => {
  it('carries its date, place, description, attendance and a sign-in that comes back to RSVP', async () => {
    const { status, html } = await page(`/events/${items.publicEvent}`);
    expect(status).toBe(200);
    expectPreviewTags(html, {
      title: 'WAVE Alumni Reunion | Broadcast History Community',
      path: `/events/${items.publicEvent}`,
      image: `${siteUrl}/og-image.png`,
    });
    const content = prerenderedWith(html, [
      'WAVE Alumni Reunion</h1>',
      'Louisville Palace, 625 S 4th St',
      'Bring your old station badges.',
      '0 of 40 places taken',
      `href="/login?redirect=%2Fevents%2F${items.publicEvent}"`,
    ]);
    expect(content).toMatch(new RegExp(`<time dateTime="${(await admin.get(`/api/events/${items.publicEvent}`)).body.startDate}">`, 'u'));
  });

  it('describes itself as an Event with the properties search engines require', async () => {
    const { html } = await page(`/events/${items.publicEvent}`);
    const event = schemaOrg(html, 'Event', {
      name: 'WAVE Alumni Reunion',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: [{ '@type': 'Place', name: 'Louisville Palace, 625 S 4th St', address: 'Louisville Palace, 625 S 4th St' }],
      organizer: { '@type': 'Person', name: 'Ada Admin' },
      maximumAttendeeCapacity: 40,
      url: `${siteUrl}/events/${items.publicEvent}`,
    });
    expect(isDate(event.startDate) && isDate(event.endDate)).toBe(true);
    expect(Date.parse(event.endDate)).toBeGreaterThan(Date.parse(event.startDate));
    expect(isUrl(event.image)).toBe(true);
  });

  it('is an online event at its page’s address, never at the meeting link members get', async () => {
    const { html } = await page(`/events/${items.virtualEvent}`);
    const [event] = jsonLd(html);
    expect(event).toMatchObject({
      eventAttendanceMode: 'https://schema.org/OnlineEventAttendanceMode',
      location: [{ '@type': 'VirtualLocation', url: `${siteUrl}/events/${items.virtualEvent}` }],
    });
    expect(html).not.toContain('secret-room');
  });

  it('is not found when private or waiting for approval, and says nothing of it', async () => {
    for (const [id, title] of [
      [items.privateEvent, 'Board-only Planning Session'],
      [items.pendingEvent, 'Unapproved Memorial Plans'],
    ] as const) {
      const { status, html } = await page(`/events/${id}`);
      expect(status).toBe(404);
      expect(html).not.toContain(title);
      expect(jsonLd(html)).toEqual([]);
    }
    // The organiser opens their own pending event: the app shows it; the server's HTML still says nothing.
    const own = await page(`/events/${items.pendingEvent}`, member);
    expect(own.status).toBe(200);
    expect(own.html).not.toContain('Unapproved Memorial Plans');
    // The app's own page under /events is not taken for an event.
    expect((await page('/events/manage')).status).toBe(200);
  });
});

/** The props the page carries for the browser to hydrate with (`<script type="application/json">`). */
function pageProps(html: string): PublicPageProps {
  const found = html.match(/<script type="application\/json" id="public-page-props">([\s\S]*?)<\/script>/u);
  expect(found).not.toBeNull();
  return JSON.parse(found![1]!) as PublicPageProps;
}

describe('one markup, rendered by the server and hydrated by the browser', () => {
  it('is what the browser’s first render of the same props draws, on every public page', async () => {
    for (const path of ['/', `/blog/${items.published}`, `/events/${items.publicEvent}`, '/blog', '/blog/tag/radio', '/blog/tag/nothing']) {
      const { html } = await page(path);
      const props = pageProps(html);
      // The tree client/public-page.tsx hydrates, slots and all, rendered before any effect: the server's HTML to the byte.
      const client = renderToString(
        createElement(QueryClientProvider, { client: new QueryClient() }, createElement(PublicPage, { props })),
      );
      expect(prerendered(html), path).toBe(client);
    }
  });

  it('carries only what the page shows, and no member’s text can end its script element', async () => {
    const { html } = await page(`/blog/${items.published}`);
    // The title's "</script><b>" is JSON text: one closing tag per script element, and the props read back whole.
    const scripts = html.match(/<script\b/gu)!.length;
    expect(html.match(/<\/script>/gu)).toHaveLength(scripts);
    const props = pageProps(html);
    expect(props).toMatchObject({ page: 'blog-post', post: { title: 'When the Tower Fell </script><b>', authorName: 'Ada Admin' } });
    expect(html).toContain('"title":"When the Tower Fell \\u003c/script>\\u003cb>"');
    const event = pageProps((await page(`/events/${items.virtualEvent}`)).html);
    expect(event.page).toBe('event');
    expect(JSON.stringify(event)).not.toContain('secret-room');
    expect(Object.keys(event.page === 'event' ? event.event : {}).sort()).toEqual(
      [
        'address',
        'allDay',
        'description',
        'endDate',
        'id',
        'isCancelled',
        'map',
        'media',
        'organizer',
        'place',
        'places',
        'startDate',
        'timeZone',
        'title',
        'typeLabel',
        'when',
      ].sort(),
    );
    // A member's page is the app's: no props, nothing to hydrate.
    expect((await page(`/blog/${items.published}`, member)).html).not.toContain('public-page-props');
  });
});

describe('feed autodiscovery', () => {
  it('names the blog’s RSS and the public calendar in the head of every page of the site', async () => {
    for (const path of ['/about', '/login', '/subscribe', '/blog', '/calendar']) {
      const { html } = await page(path);
      expect(html, path).toContain(
        '<link rel="alternate" type="application/rss+xml" title="Broadcast History Community blog" href="/rss" />',
      );
      expect(html, path).toContain(
        '<link rel="alternate" type="text/calendar" title="Broadcast History Community events" href="/api/calendar.ics" />',
      );
    }
  });
});

describe('the sitemap', () => {
  it('lists the published post and the public events with their last change, and nothing else of them', async () => {
    const xml = String((await visitor().get('/sitemap.xml')).body);
    const entries = new Map(
      [...xml.matchAll(/<loc>([^<]+)<\/loc>\n(?:\s*<lastmod>([^<]+)<\/lastmod>)?/gu)].map((match) => [match[1]!, match[2]]),
    );
    for (const id of [items.published]) expect(isDate(entries.get(`${siteUrl}/blog/${id}`))).toBe(true);
    for (const id of [items.publicEvent, items.virtualEvent]) expect(isDate(entries.get(`${siteUrl}/events/${id}`))).toBe(true);
    for (const path of [`/blog/${items.draft}`, `/events/${items.privateEvent}`, `/events/${items.pendingEvent}`])
      expect(entries.has(`${siteUrl}${path}`)).toBe(false);
  });
});

/** A picture uploaded by `who` (docs/domain/media.md#uploading). */
async function uploadPicture(who: Browser, width: number, height: number) {
  const form = new FormData();
  const bytes = await sharp({ create: { width, height, channels: 3, background: { r: 40, g: 80, b: 120 } } })
    .jpeg()
    .toBuffer();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'tower.jpg');
  const response = await fetch(new URL('/api/media', site.url), {
    method: 'POST',
    body: form,
    headers: { origin: site.url, cookie: `${SESSION_COOKIE}=${who.cookie(SESSION_COOKIE)}` },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; url: string; width: number; height: number };
}

describe('pictures of our own uploads', () => {
  it('make a blog post’s cover its preview picture, at an absolute address with its size, and show on its page', async () => {
    const cover = await uploadPicture(admin, 2000, 1000);
    const inline = await uploadPicture(admin, 1200, 900);
    const created = await admin.post('/api/blog', {
      title: 'The cover story',
      isPublished: true,
      mediaId: cover.id,
      content: `<p>The transmitter hall as it stood in 1962, before the fire.</p><p><img src="/media/${inline.id}/blog.webp" width="1200" height="900" alt="The hall" /></p>`,
    });
    expect(created.status).toBe(201);
    const { html } = await page(`/blog/${created.body.slug}`);
    const coverUrl = `${siteUrl}/media/${cover.id}/blog.webp`;
    expectPreviewTags(html, {
      title: 'The cover story | Broadcast History Community',
      path: `/blog/${created.body.slug}`,
      image: coverUrl,
    });
    expect([metaContent(html, 'property', 'og:image:width'), metaContent(html, 'property', 'og:image:height')]).toEqual(['1600', '800']);
    expect(metaContent(html, 'name', 'twitter:image')).toBe(coverUrl);
    expect(jsonLd(html)[0]!.image).toBe(coverUrl);
    const content = prerendered(html)!;
    // Its size kept, the feed's 800-wide file offered to a phone, fetched first (it is the page's largest paint).
    expect(content).toContain(
      `<img src="/media/${cover.id}/blog.webp" srcSet="/media/${cover.id}/feed.webp 800w, /media/${cover.id}/blog.webp 1600w" sizes="(max-width: 800px) 100vw, 768px" width="1600" height="800" alt="" fetchPriority="high"`,
    );
    expect(content).toContain(`<img src="/media/${inline.id}/blog.webp" width="1200" height="900" alt="The hall" />`);
  });

  it('make a post’s first inline picture its preview picture when it has no cover', async () => {
    const inline = await uploadPicture(admin, 1200, 900);
    const created = await admin.post('/api/blog', {
      title: 'Pictures inside',
      isPublished: true,
      content: `<p>Text.</p><p><img src="/media/${inline.id}/blog.webp" width="1200" height="900" alt="The hall" /></p>`,
    });
    const { html } = await page(`/blog/${created.body.slug}`);
    expect(metaContent(html, 'property', 'og:image')).toBe(`${siteUrl}/media/${inline.id}/blog.webp`);
    expect([metaContent(html, 'property', 'og:image:width'), metaContent(html, 'property', 'og:image:height')]).toEqual(['1200', '900']);
  });

  it('make an event’s cover its preview picture and show on its page with its size', async () => {
    const cover = await uploadPicture(admin, 1600, 1200);
    const created = await admin.post('/api/events', {
      title: 'Tower Open House',
      eventType: 'reunion',
      startDate: inAWeek(0),
      endDate: inAWeek(2),
      mediaId: cover.id,
    });
    expect(created.status).toBe(201);
    const { html } = await page(`/events/${created.body.id}`);
    const coverUrl = `${siteUrl}/media/${cover.id}/feed.webp`;
    expect(metaContent(html, 'property', 'og:image')).toBe(coverUrl);
    expect([metaContent(html, 'property', 'og:image:width'), metaContent(html, 'property', 'og:image:height')]).toEqual(['800', '600']);
    expect(jsonLd(html)[0]!.image).toBe(coverUrl);
    expect(prerendered(html)).toContain(`<img src="/media/${cover.id}/feed.webp" width="800" height="600" alt=""`);
    // Without a cover, the site's picture and no size.
    const { html: plain } = await page(`/events/${items.publicEvent}`);
    expect(metaContent(plain, 'property', 'og:image')).toBe(`${siteUrl}/og-image.png`);
    expect(metaContent(plain, 'property', 'og:image:width')).toBeUndefined();
  });
});
