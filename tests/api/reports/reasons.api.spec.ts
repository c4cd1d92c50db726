/**
 * Reasons and what staff judge (docs/domain/reports.md, docs/domain/events.md): rejections of posts and events take an
 * optional reason (at most 500 characters) shown to staff and the author or organizer, and to no one else; reports
 * take one shown to staff; the reports queue carries a reported post's media, so staff see what they judge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../../support/site';
import { Browser, registerCast } from '../../support/http';

let site: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  cast = await registerCast(site.url);
});
afterAll(async () => {
  await site?.close();
});

const inDays = (days: number, hour = 18) =>
  new Date(Date.now() + days * 86_400_000).toISOString().replace(/T\d\d/u, `T${String(hour).padStart(2, '0')}`);
const newEvent = (title: string) => ({
  title,
  eventType: 'reunion',
  location: 'Tribune Tower',
  startDate: inDays(10),
  endDate: inDays(10, 21),
});
const notificationTexts = async (browser: Browser) =>
  ((await browser.get('/api/notifications')).body.items as { text: string; link: string }[]).map((item) => item.text);

describe('a rejected event', () => {
  it('keeps the reason staff gave, for its organizer and staff only, and tells the organizer why', async () => {
    const { member, staff, other } = cast;
    const created = await member.browser.post('/api/events', newEvent('Night shift reunion'));
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    const rejected = await staff.browser.put(`/api/admin/events/${id}/reject`, { reason: '  Please add the address of the hall.  ' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'Please add the address of the hall.' });

    expect((await member.browser.get(`/api/events/${id}`)).body).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Please add the address of the hall.',
    });
    expect((await cast.admin.browser.get(`/api/events/${id}`)).body.rejectionReason).toBe('Please add the address of the hall.');
    // Nobody else reads it (a rejected event is not theirs to see at all).
    const seenByOther = await other.browser.get(`/api/events/${id}`);
    expect(seenByOther.body?.rejectionReason).toBeUndefined();
    const guest = await new Browser(site.url).get(`/api/events/${id}`);
    expect(guest.body?.rejectionReason).toBeUndefined();

    await expect
      .poll(() => notificationTexts(member.browser))
      .toContain('Your event “Night shift reunion” was not approved: Please add the address of the hall.');
  });

  it('may be rejected without a reason (no body, an empty body, a blank reason)', async () => {
    for (const body of ['', {}, { reason: '   ' }]) {
      const id = (await cast.member.browser.post('/api/events', newEvent('Transmitter open day'))).body.id as string;
      const rejected = await cast.staff.browser.request('PUT', `/api/admin/events/${id}/reject`, body, {
        'content-type': 'application/json',
      });
      expect(rejected.status, JSON.stringify(body)).toBe(200);
      expect(rejected.body.rejectionReason).toBeNull();
    }
  });

  it('refuses a reason over 500 characters, and approval clears the reason', async () => {
    const id = (await cast.member.browser.post('/api/events', newEvent('Record hop'))).body.id as string;
    const tooLong = await cast.staff.browser.put(`/api/admin/events/${id}/reject`, { reason: 'x'.repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fields).toMatchObject({ reason: 'Reason must be at most 500 characters' });
    expect((await cast.staff.browser.put(`/api/admin/events/${id}/reject`, { reason: 'x'.repeat(500) })).body.rejectionReason).toHaveLength(
      500,
    );
    const approved = await cast.staff.browser.put(`/api/admin/events/${id}/approve`);
    expect(approved.body.status).toBe('approved');
    expect(approved.body.rejectionReason).toBeUndefined();
  });

  it('is for staff to reject', async () => {
    const id = (await cast.member.browser.post('/api/events', newEvent('DX night'))).body.id as string;
    expect((await cast.other.browser.put(`/api/admin/events/${id}/reject`, { reason: 'no' })).status).toBe(403);
  });
});

describe('a rejected post', () => {
  it('tells its author the reason, and no other member', async () => {
    const { member, staff, other } = cast;
    const id = (await member.browser.post('/api/posts', { content: 'My first microphone', tags: [] })).body.id as string;
    const rejected = await staff.browser.put(`/api/admin/posts/${id}/reject`, { reason: 'Say which station it was.' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'Say which station it was.' });
    await expect
      .poll(() => notificationTexts(member.browser))
      .toContain('Your post “My first microphone” was not approved: Say which station it was.');
    expect((await notificationTexts(other.browser)).some((text) => text.includes('Say which station'))).toBe(false);
    const theirs = (await other.browser.get('/api/posts?limit=100')).body.items as { id: string }[];
    expect(theirs.some((post) => post.id === id)).toBe(false);
  });
});

describe('the reports queue', () => {
  it('carries a reported post’s media and the reasons given; a comment carries none', async () => {
    const { member, staff, other } = cast;
    const picture = 'https://upload.wikimedia.org/wikipedia/commons/a/a4/RCA_44BX_microphone.jpg';
    const postId = (
      await member.browser.post('/api/posts', {
        content: 'Our old ribbon microphone',
        mediaType: 'image',
        mediaUrl: picture,
        mediaTitle: 'RCA 44-BX',
        tags: [],
      })
    ).body.id as string;
    await staff.browser.put(`/api/admin/posts/${postId}/approve`);
    expect((await other.browser.post(`/api/posts/${postId}/report`, { reason: 'Not a picture of ours' })).status).toBe(200);
    const commentId = (await member.browser.post(`/api/posts/${postId}/comments`, { content: 'It still works' })).body.id as string;
    expect((await other.browser.post(`/api/comments/${commentId}/report`, { reason: 'x'.repeat(501) })).status).toBe(400);
    expect((await other.browser.post(`/api/comments/${commentId}/report`, {})).status).toBe(200);

    const queue = (await staff.browser.get('/api/admin/reports')).body.items as {
      targetType: string;
      targetId: string;
      media?: unknown;
      reasons: string[];
    }[];
    const post = queue.find((entry) => entry.targetId === postId);
    expect(post).toMatchObject({
      targetType: 'post',
      reasons: ['Not a picture of ours'],
      media: { mediaType: 'image', mediaUrl: picture, mediaTitle: 'RCA 44-BX' },
    });
    const comment = queue.find((entry) => entry.targetId === commentId);
    expect(comment).toMatchObject({ targetType: 'comment', reasons: [] });
    expect(comment).not.toHaveProperty('media');
  });

  it('follows what the reported post now says: a staff edit at once, a member’s held edit once approved', async () => {
    const { member, staff, other } = cast;
    const first = 'https://upload.wikimedia.org/wikipedia/commons/a/a4/RCA_44BX_microphone.jpg';
    const second = 'https://upload.wikimedia.org/wikipedia/commons/5/5e/Shure_55SH.jpg';
    const postId = (
      await member.browser.post('/api/posts', { content: 'A microphone from the attic', mediaType: 'image', mediaUrl: first, tags: [] })
    ).body.id as string;
    await staff.browser.put(`/api/admin/posts/${postId}/approve`);
    expect((await other.browser.post(`/api/posts/${postId}/report`, { reason: 'Not ours' })).status).toBe(200);
    const entry = async () =>
      (
        (await staff.browser.get('/api/admin/reports')).body.items as { targetId: string; excerpt: string; media?: { mediaUrl: string } }[]
      ).find((item) => item.targetId === postId);
    expect(await entry()).toMatchObject({ excerpt: 'A microphone from the attic', media: { mediaUrl: first } });

    expect(
      (
        await staff.browser.patch(`/api/posts/${postId}`, {
          content: 'A microphone (picture removed by staff)',
          mediaType: null,
          mediaUrl: null,
        })
      ).status,
    ).toBe(200);
    const edited = await entry();
    expect(edited?.excerpt).toBe('A microphone (picture removed by staff)');
    expect(edited).not.toHaveProperty('media');

    expect(
      (
        await member.browser.patch(`/api/posts/${postId}`, {
          content: 'My Shure 55, found in the attic',
          mediaType: 'image',
          mediaUrl: second,
        })
      ).status,
    ).toBe(200);
    expect((await entry())?.excerpt).toBe('A microphone (picture removed by staff)');
    expect((await staff.browser.put(`/api/admin/posts/${postId}/approve`)).status).toBe(200);
    expect(await entry()).toMatchObject({ excerpt: 'My Shure 55, found in the attic', media: { mediaType: 'image', mediaUrl: second } });
  });
});
