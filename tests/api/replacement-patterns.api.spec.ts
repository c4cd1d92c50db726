/**
 * Text that looks like a replacement pattern (`` $` ``, `$'`, `$&`, `$1`, `$$`, `$<n>`) in every field that reaches a
 * public page, a link preview, RSS, a calendar file, a widget's data or a mail comes out as written, once, and the
 * answer is no bigger than the text put in. Before replacer functions, a blog title of forty `` $` `` made one
 * anonymous page 315 MB (docs/guarantees.md#text-into-pages).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../support/site';
import { Browser, registerMember } from '../support/http';
import { publicPages, withPublicPage } from '../../server/public-pages/pages';
import type { CapturedMail } from '../../platform/mail/smtp-sink';
import { escapeHtml } from '../../shared/text';

/** Each pattern `String.prototype.replace` reads, with words between so that none merges into another. */
const PATTERNS = "a$`b$'c$&d$1e$$f$<n>g";
const hostile = (label: string, times: number) => `${label} ${PATTERNS.repeat(times)}`;
/** Far below what one `` $` `` per character would make of a page (the page itself, once per pattern). */
const MAX_ANSWER_BYTES = 400_000;

const TITLE = hostile('Title', 10);
const CONTENT_TEXT = hostile('Content', 30);
const EXCERPT = hostile('Excerpt', 10);
const DESCRIPTION = hostile('Description', 30);
const LOCATION = hostile('Location', 5);
const FIRST = hostile('First', 3);
const LAST = hostile('Last', 3);
const POST_TEXT = hostile('Post', 30);

/** The text as written, whatever the format escaped: HTML and XML entities, JSON escapes, iCalendar's folding. */
function decoded(body: string): string {
  return body
    .replace(/\r\n[ \t]/gu, '')
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/giu, (entity, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[name] ?? entity;
    })
    .replace(/\\u0027/gu, "'");
}

function expectLiteral(where: string, body: string, ...texts: string[]) {
  expect(Buffer.byteLength(body), `${where}: size`).toBeLessThan(MAX_ANSWER_BYTES);
  for (const text of texts) expect(decoded(body).includes(text), `${where} holds “${text.slice(0, 20)}…” as written`).toBe(true);
}

let site: TestSite;
let admin: Browser;
let member: Browser;
let memberEmail: string;
let blogSlug: string;
let eventId: string;
let postId: string;
const visitor = () => new Browser(site.url);
const TEMPLATE =
  '<!doctype html><html><head><title>App</title><meta name="description" content="app"></head><body><div id="root"></div></body></html>';

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  admin = (await registerMember(site.url, { firstName: FIRST, lastName: LAST })).browser;
  const registered = await registerMember(site.url, { firstName: FIRST, lastName: LAST });
  member = registered.browser;
  memberEmail = registered.account.email;
  expect((await member.post('/api/subscriptions', { subscriptionType: 'all', frequency: 'immediate' })).status).toBe(201);
  const blog = await admin.post('/api/blog', {
    title: TITLE,
    excerpt: EXCERPT,
    isPublished: true,
    tags: ['radio'],
    content: `<p>${escapeHtml(CONTENT_TEXT)}</p>`,
  });
  expect(blog.status).toBe(201);
  blogSlug = blog.body.slug;
  const inAWeek = Date.now() + 7 * 24 * 3600 * 1000;
  const event = await admin.post('/api/events', {
    title: TITLE,
    description: DESCRIPTION,
    location: LOCATION,
    eventType: 'reunion',
    startDate: new Date(inAWeek).toISOString(),
    endDate: new Date(inAWeek + 3600_000).toISOString(),
  });
  expect(event.status).toBe(201);
  eventId = event.body.id;
  const post = await admin.post('/api/posts', { content: POST_TEXT });
  expect(post.status).toBe(201);
  postId = post.body.id;
});
afterAll(async () => {
  await site?.close();
});

describe('text that looks like a replacement pattern', () => {
  it('stays as written in the public pages and their link previews, for a visitor and for a member', async () => {
    const pages = publicPages({
      store: site.services.store,
      siteUrl: site.services.config.publicUrl,
      timeZone: async () => 'America/Chicago',
      now: () => new Date(),
    });
    const templates = { app: TEMPLATE, firstPaint: TEMPLATE };
    for (const signedIn of [false, true]) {
      const blog = withPublicPage(templates, await pages.blogPost(blogSlug, signedIn));
      expectLiteral(`blog page (signed in: ${signedIn})`, blog, TITLE);
      if (!signedIn) expectLiteral('blog page content', blog, CONTENT_TEXT, FIRST);
      const event = withPublicPage(templates, await pages.event(eventId, signedIn));
      expectLiteral(`event page (signed in: ${signedIn})`, event, TITLE);
      if (!signedIn) expectLiteral('event page content', event, DESCRIPTION, LOCATION);
    }
  });

  it('stays as written in RSS, the sitemap, the calendar files and the widgets’ data', async () => {
    const rss = await visitor().get('/rss');
    expect(rss.status).toBe(200);
    expectLiteral('RSS', String(rss.body), TITLE);
    const ics = await visitor().get(`/api/events/${eventId}/ics`);
    expect(ics.status).toBe(200);
    expectLiteral('event .ics', String(ics.body), TITLE, DESCRIPTION.replace(/,/gu, '\\,'), LOCATION);
    const calendar = await visitor().get('/api/calendar.ics');
    expectLiteral('calendar .ics', String(calendar.body), TITLE);
    for (const path of [
      '/api/blog?limit=5',
      `/api/blog/${blogSlug}`,
      '/api/events?limit=5',
      `/api/events/${eventId}`,
      '/api/posts?limit=5',
    ]) {
      const answer = await visitor().request('GET', path);
      expect(answer.status, path).toBe(200);
      expectLiteral(path, JSON.stringify(answer.body), path.includes('posts') ? POST_TEXT : TITLE);
    }
  });

  it('stays as written in the mails: a sign-in link, an e-mail change link, a new blog post and feed post', async () => {
    await visitor().post('/api/auth/magic-link', { email: memberEmail });
    await member.post('/api/me/email', { email: `moved-${Date.now()}@example.org`, currentPassword: 'correct horse battery' });
    const mailbox = site.services.mailbox;
    const personal: CapturedMail[] = [
      await mailbox.waitFor((mail) => mail.to.includes(memberEmail) && /sign-in link/iu.test(mail.subject)),
      await mailbox.waitFor((mail) => /new e-mail address/iu.test(mail.subject)),
    ];
    for (const mail of personal) expectLiteral(`mail “${mail.subject}”`, `${mail.html}\n${mail.text}`, FIRST, LAST);
    const blog = await mailbox.waitFor((mail) => mail.to.includes(memberEmail) && mail.subject.startsWith('New on the blog'), 20_000);
    expectLiteral('blog post mail', `${blog.subject}\n${blog.html}\n${blog.text}`, TITLE.slice(0, 100), EXCERPT.slice(0, 100));
    const post = await mailbox.waitFor((mail) => mail.to.includes(memberEmail) && mail.subject.startsWith('New in the newsfeed'), 20_000);
    expectLiteral('feed post mail', `${post.subject}\n${post.html}\n${post.text}`, POST_TEXT.slice(0, 60));
    expect(postId).toBeTruthy();
  });
});
