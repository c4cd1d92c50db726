/**
 * Scheduled publishing (docs/domain/blog.md#scheduling): a post with a future `publishAt` stays a draft to every
 * reader and mails nobody until then; then it is published and mailed to subscribers exactly once. A post whose time
 * passed while no workers ran is published when they start. Times are a couple of seconds ahead, not hours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerMember } from '../../support/http';
import { allDelivered, commands, startCountingSmtp, subscribe, type CountingSmtp } from '../subscriptions/delivery-fixtures';

let smtp: CountingSmtp;
let site: TestSite;
let staff: Browser;
let member: Browser;
const visitor = () => new Browser(site.url);
const SUBSCRIBER = 'scheduled-reader@example.org';

async function startSite(roles: string) {
  site = await startTestSite({
    RATE_LIMIT_AUTH_MAX: '1000',
    SECURE_COOKIES: 'false',
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    ROLES: roles,
  });
  const admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  const { browser, user } = await registerMember(site.url, { firstName: 'Sally', lastName: 'Editor' });
  expect((await admin.put(`/api/admin/users/${user.id}/role`, { role: 'staff' })).status).toBe(200);
  staff = browser;
  member = (await registerMember(site.url, { firstName: 'Rita', lastName: 'Reader' })).browser;
  await subscribe(commands(site.services.eventStore), site.services.config.subscriptionLinkSecret, {
    email: SUBSCRIBER,
    type: 'blog_posts',
    frequency: 'immediate',
  });
}

beforeAll(async () => {
  smtp = await startCountingSmtp();
});
afterAll(async () => {
  await site?.close();
  await smtp?.close();
});

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
const mailsAbout = (title: string) => smtp.to(SUBSCRIBER).filter((mail) => mail.subject.includes(title));
const ids = (response: { body: { items: { id: string }[] } }) => response.body.items.map((post) => post.id);

/** A post invisible to members and visitors, at its id, its slug and in every list. */
async function expectHidden(post: { id: string; slug: string }) {
  for (const reader of [visitor(), member]) {
    expect((await reader.get(`/api/blog/${post.id}`)).status).toBe(404);
    expect((await reader.get(`/api/blog/${post.slug}`)).status).toBe(404);
    expect(ids(await reader.get('/api/blog?limit=100'))).not.toContain(post.id);
  }
  expect((await visitor().get(`/blog/${post.slug}`)).status).toBe(404);
  expect((await visitor().get('/rss')).body).not.toContain(post.slug);
}

describe('scheduled publishing', () => {
  beforeAll(async () => {
    await startSite('api,projections,workers');
  });
  afterAll(async () => {
    await site.close();
  });

  it('keeps the post from readers and subscribers until publishAt, then publishes and mails it once', async () => {
    const publishAt = inSeconds(3);
    const created = await staff.post('/api/blog', { title: 'Scheduled column', content: '<p>Later</p>', publishAt });
    expect(created.status).toBe(201);
    const post = created.body as { id: string; slug: string; isPublished: boolean; publishAt: string | null };
    expect(post).toMatchObject({ isPublished: false, publishAt, publishedAt: null });

    await expectHidden(post);
    const scheduled = await staff.get('/api/admin/blog?status=scheduled');
    expect(scheduled.status).toBe(200);
    expect(ids(scheduled)).toEqual([post.id]);
    expect(ids(await staff.get('/api/admin/blog?status=draft'))).not.toContain(post.id);
    expect(ids(await staff.get('/api/admin/blog?status=published'))).not.toContain(post.id);
    expect((await member.get('/api/admin/blog?status=scheduled')).status).toBe(403);
    await allDelivered(site.services);
    expect(mailsAbout('Scheduled column')).toHaveLength(0);

    // Its time comes.
    await expect.poll(async () => (await visitor().get(`/api/blog/${post.slug}`)).status, { timeout: 10_000, interval: 200 }).toBe(200);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(publishAt));
    const published = (await visitor().get(`/api/blog/${post.slug}`)).body;
    expect(published).toMatchObject({ isPublished: true, publishedAt: publishAt, publishAt: null });
    expect(ids(await visitor().get('/api/blog?limit=100'))).toContain(post.id);
    expect(ids(await staff.get('/api/admin/blog?status=scheduled'))).toEqual([]);
    await allDelivered(site.services);
    await expect.poll(() => mailsAbout('Scheduled column').length, { timeout: 10_000 }).toBe(1);
    expect(mailsAbout('Scheduled column')[0]!.text).toContain(`/blog/${post.slug}`);

    // More ticks, a manual publish: nothing more is sent.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await staff.post(`/api/blog/${post.id}/publish`)).status).toBe(200);
    await allDelivered(site.services);
    expect(mailsAbout('Scheduled column')).toHaveLength(1);
  });

  it('refuses a time in the past or not a time, naming publishAt; a schedule can be moved and taken away', async () => {
    const past = await staff.post('/api/blog', { title: 'Too late', content: '<p>x</p>', publishAt: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.fields).toHaveProperty('publishAt');
    const garbage = await staff.post('/api/blog', { title: 'Garbage', content: '<p>x</p>', publishAt: 'tomorrow' });
    expect(garbage.status).toBe(400);
    expect(garbage.body.fields).toHaveProperty('publishAt');

    const post = (await staff.post('/api/blog', { title: 'Moved column', content: '<p>x</p>', publishAt: inSeconds(2) })).body;
    const later = inSeconds(3600);
    const moved = await staff.patch(`/api/blog/${post.id}`, { title: 'Moved column', excerpt: '', content: '<p>x</p>', publishAt: later });
    expect(moved.body.publishAt).toBe(later);
    // The first time passes: nothing happens, it waits for the new one.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await visitor().get(`/api/blog/${post.id}`)).status).toBe(404);
    const cancelled = await staff.patch(`/api/blog/${post.id}`, {
      title: 'Moved column',
      excerpt: '',
      content: '<p>x</p>',
      publishAt: null,
    });
    expect(cancelled.body).toMatchObject({ publishAt: null, isPublished: false });
    expect(ids(await staff.get('/api/admin/blog?status=draft'))).toContain(post.id);
    // A published post is not scheduled.
    const live = (await staff.post('/api/blog', { title: 'Live column', content: '<p>x</p>', isPublished: true })).body;
    expect(
      (await staff.patch(`/api/blog/${live.id}`, { title: 'Live column', excerpt: '', content: '<p>x</p>', publishAt: inSeconds(60) }))
        .status,
    ).toBe(422);
    await allDelivered(site.services);
    expect(mailsAbout('Moved column')).toHaveLength(0);
  });
});

describe('a schedule that passed while the workers were down', () => {
  it('is published, and mailed once, when the workers start', async () => {
    // The site without its workers: nothing publishes.
    await startSite('api,projections');
    const post = (await staff.post('/api/blog', { title: 'Missed while down', content: '<p>x</p>', publishAt: inSeconds(1) })).body as {
      id: string;
      slug: string;
    };
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await expectHidden(post);
    expect(mailsAbout('Missed while down')).toHaveLength(0);

    await site.services.startWorkers();
    await expect.poll(async () => (await visitor().get(`/api/blog/${post.slug}`)).status, { timeout: 10_000, interval: 200 }).toBe(200);
    await allDelivered(site.services);
    await expect.poll(() => mailsAbout('Missed while down').length, { timeout: 10_000 }).toBe(1);
  });
});
