/**
 * A member's name and picture wherever the site shows them beside what they did (docs/architecture.md#read-model-ownership):
 * each read model keeps its own copy from the member's own events, so a new name or picture reaches every one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../../support/site';
import { SESSION_COOKIE } from '../../../server/app';
import { registerCast, registerMember, type Browser } from '../../support/http';

let site: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;
let mediaDirectory: string;

beforeAll(async () => {
  mediaDirectory = await mkdtemp(join(tmpdir(), 'bhc-bylines-media-'));
  site = await startTestSite({ ...UNLIMITED_RATES, MEDIA_DIR: mediaDirectory });
  cast = await registerCast(site.url);
}, 60_000);
afterAll(async () => {
  await site?.close();
  await rm(mediaDirectory, { recursive: true, force: true });
});

/** A new picture, uploaded as the account page does and made the member's avatar; its address. */
async function newAvatar(browser: Browser): Promise<string> {
  const form = new FormData();
  const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: { r: 20, g: 90, b: 140 } } })
    .png()
    .toBuffer();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
  const uploaded = await fetch(new URL('/api/media', site.url), {
    method: 'POST',
    body: form,
    headers: { origin: site.url, cookie: `${SESSION_COOKIE}=${browser.cookie(SESSION_COOKIE)}` },
  });
  expect(uploaded.status).toBe(201);
  const avatar = await browser.put('/api/me/avatar', { mediaId: ((await uploaded.json()) as { id: string }).id });
  expect(avatar.status).toBe(200);
  return avatar.body.profileImageUrl as string;
}

describe('a renamed member with a new picture', () => {
  it('shows so on their posts, comments, blog posts, events, open reports and others’ notifications', async () => {
    const writer = await registerMember(site.url, { firstName: 'Wanda', lastName: 'Writer' });
    expect((await cast.admin.browser.put(`/api/admin/users/${writer.user.id}/role`, { role: 'staff' })).status).toBe(200);
    const { browser } = writer;
    const post = (await browser.post('/api/posts', { content: 'The old transmitter hall', tags: ['towers'] })).body.id as string;
    expect((await cast.other.browser.post(`/api/posts/${post}/report`, { reason: 'duplicate' })).status).toBe(200);
    const adminPost = (await cast.admin.browser.post('/api/posts', { content: 'Share your tower photos' })).body.id as string;
    expect((await browser.post(`/api/posts/${adminPost}/comments`, { content: 'Here is mine' })).status).toBe(201);
    const blog = (await browser.post('/api/blog', { title: 'Tower memories', content: '<p>Text</p>', isPublished: true })).body
      .id as string;
    const event = (
      await browser.post('/api/events', { title: 'Tower walk', startDate: '2031-04-10T15:00:00Z', endDate: '2031-04-10T17:00:00Z' })
    ).body.id as string;

    const made = await cast.admin.browser.post('/api/admin/categories', { name: 'Tower talk' });
    expect(made.status).toBe(201);
    const category = made.body.id as string;
    const started = await browser.post('/api/topics', { title: 'Tower lights', content: 'Who kept them lit?', categoryId: category });
    expect(started.status).toBe(201);
    const topic = started.body.id as string;
    const reply = (await browser.post(`/api/topics/${topic}/replies`, { content: 'I did, in 1961.' })).body.id as string;
    expect((await cast.other.browser.post(`/api/topics/${topic}/replies`, { content: 'Thank you.', replyTo: reply })).status).toBe(201);

    expect((await browser.patch('/api/me', { firstName: 'Winifred' })).status).toBe(200);
    const avatar = await newAvatar(browser);

    const shown = { name: 'Winifred Writer', avatar };
    const feed = (await cast.member.browser.get('/api/posts?q=winifred')).body.items;
    expect(feed.find((item: { id: string }) => item.id === post)?.author).toMatchObject(shown);
    const thread = (await cast.member.browser.get(`/api/posts/${adminPost}/comments`)).body.items;
    expect(thread[0].author).toMatchObject(shown);
    expect((await cast.member.browser.get(`/api/blog/${blog}`)).body.author).toMatchObject({
      name: 'Winifred Writer',
      firstName: 'Winifred',
      profileImageUrl: avatar,
    });
    expect((await cast.member.browser.get(`/api/events/${event}`)).body.organizer).toMatchObject({
      firstName: 'Winifred',
      profileImageUrl: avatar,
    });
    const topics = (await cast.member.browser.get(`/api/topics?category=${category}`)).body.items;
    expect(topics.find((item: { id: string }) => item.id === topic)?.author).toMatchObject(shown);
    const page = (await cast.member.browser.get(`/api/topics/${topic}`)).body;
    expect(page.topic.author).toMatchObject(shown);
    const replies = page.replies.items;
    expect(replies[0].author).toMatchObject(shown);
    expect(replies[1].replyTo.author).toEqual({ id: writer.user.id, name: 'Winifred Writer' });
    const reports = (await cast.admin.browser.get('/api/admin/reports')).body.items;
    expect(reports.find((report: { targetId: string }) => report.targetId === post)?.author).toEqual({
      id: writer.user.id,
      name: 'Winifred Writer',
    });
    const told = (await cast.admin.browser.get('/api/notifications')).body.items.map((item: { text: string }) => item.text);
    expect(told).toContain('Winifred Writer commented on your post “Share your tower photos”');
  }, 60_000);

  it('reach what they wrote before, in every list and page, whatever the order: pending then approved, renamed twice, picture changed again', async () => {
    const writer = await registerMember(site.url, { firstName: 'Otto', lastName: 'Oldname' });
    const { browser } = writer;
    // A member's post waits for approval; renamed while it waits, approved after.
    const pending = (await browser.post('/api/posts', { content: 'Pending while renamed' })).body.id as string;
    const approved = (await browser.post('/api/posts', { content: 'Approved before the rename' })).body.id as string;
    expect((await cast.admin.browser.put(`/api/admin/posts/${approved}/approve`)).status).toBe(200);
    const event = (
      await browser.post('/api/events', { title: 'Old name event', startDate: '2031-07-10T15:00:00Z', endDate: '2031-07-10T17:00:00Z' })
    ).body.id as string;
    expect((await cast.admin.browser.put(`/api/admin/events/${event}/approve`)).status).toBeLessThan(300);
    expect((await browser.post(`/api/posts/${approved}/comments`, { content: 'My own thread' })).status).toBe(201);
    await newAvatar(browser);

    expect((await browser.patch('/api/me', { firstName: 'Ottilie' })).status).toBe(200);
    expect((await browser.patch('/api/me', { lastName: 'Newname' })).status).toBe(200);
    expect((await cast.admin.browser.put(`/api/admin/posts/${pending}/approve`)).status).toBe(200);
    const avatar = await newAvatar(browser);
    const shown = { id: writer.user.id, name: 'Ottilie Newname', avatar };

    // As another member reads them, fresh (a reload): the single post, the feed, the profile, the threads, the calendar.
    const reader = cast.member.browser;
    for (const id of [pending, approved]) expect((await reader.get(`/api/posts/${id}`)).body.author).toMatchObject(shown);
    const feed = (await reader.get('/api/posts?limit=100')).body.items as { id: string; author: unknown }[];
    for (const id of [pending, approved]) expect(feed.find((item) => item.id === id)?.author).toMatchObject(shown);
    expect((await reader.get(`/api/members/${writer.user.id}`)).body).toMatchObject({ name: 'Ottilie Newname', avatar });
    expect((await reader.get(`/api/posts/${approved}/comments`)).body.items[0].author).toMatchObject(shown);
    expect((await reader.get(`/api/events/${event}`)).body.organizer).toMatchObject({
      firstName: 'Ottilie',
      lastName: 'Newname',
      profileImageUrl: avatar,
    });
    const calendar = JSON.stringify((await reader.get('/api/events?limit=100')).body);
    expect(calendar).not.toContain('Oldname');
    expect(JSON.stringify((await reader.get('/api/posts?limit=100')).body)).not.toContain('Oldname');
  }, 60_000);
});
