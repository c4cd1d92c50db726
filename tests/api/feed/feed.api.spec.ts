import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, grantRole, registerAdminAndStaff, registerMember } from '../../support/http';

let site: TestSite;
let admin: Browser;
let staff: Browser;
let member: Browser;
let memberId: string;
let subscriber: Browser;
const anonymous = () => new Browser(site.url);

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_POST_MAX: '1000' });
  ({
    admin: { browser: admin },
    staff: { browser: staff },
  } = await registerAdminAndStaff(site.url));
  ({
    browser: member,
    user: { id: memberId },
  } = await registerMember(site.url, { firstName: 'Mary', lastName: 'Member' }));
  const sub = await registerMember(site.url, { firstName: 'Sue', lastName: 'Subscriber' });
  subscriber = sub.browser;
  await grantRole(admin, sub.user.id, 'subscriber');
});
afterAll(async () => {
  await site?.close();
});

describe('posting and moderation', () => {
  let pendingId: string;

  it('publishes staff posts at once and keeps member posts pending', async () => {
    const staffPost = await staff.post('/api/posts', {
      content: '  The WGN tower turns 75 today  ',
      tags: ['#WGN', 'anniversary', 'wgn', ''],
    });
    expect(staffPost.status).toBe(201);
    expect(staffPost.body).toMatchObject({
      content: 'The WGN tower turns 75 today',
      tags: ['wgn', 'anniversary'],
      isApproved: true,
      isPinned: false,
      likes: 0,
      likesCount: 0,
      author: { name: 'Stan Staff', role: 'staff' },
    });

    const memberPost = await member.post('/api/posts', {
      content: 'My grandfather ran the transmitter',
      mediaType: 'youtube',
      mediaUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      tags: ['family'],
    });
    expect(memberPost.status).toBe(201);
    expect(memberPost.body.isApproved).toBe(false);
    pendingId = memberPost.body.id;

    const subscriberPost = await subscriber.post('/api/posts', { content: 'Hello from a listener' });
    expect(subscriberPost.body.isApproved).toBe(false);
  });

  it('shows pending posts to their author and staff only', async () => {
    const own = await member.get('/api/posts');
    expect(own.body.items.map((p: { id: string }) => p.id)).toContain(pendingId);
    const others = await admin.get('/api/posts');
    expect(others.body.items.map((p: { id: string }) => p.id)).not.toContain(pendingId);
    const publicFeed = await anonymous().get('/api/posts');
    expect(publicFeed.status).toBe(200);
    expect(publicFeed.body.items.every((p: { isApproved: boolean }) => p.isApproved)).toBe(true);
    expect(JSON.stringify(publicFeed.body)).not.toMatch(/@example\.org/);

    const queue = await staff.get('/api/admin/posts/pending');
    expect(queue.body.items.map((p: { content: string }) => p.content)).toEqual([
      'My grandfather ran the transmitter',
      'Hello from a listener',
    ]);
    expect((await member.get('/api/admin/posts/pending')).status).toBe(403);
    expect((await anonymous().get('/api/admin/posts/pending')).status).toBe(401);
  });

  it('lets staff approve, and the post joins everyone’s feed', async () => {
    expect((await member.put(`/api/admin/posts/${pendingId}/approve`)).status).toBe(403);
    const approved = await staff.put(`/api/admin/posts/${pendingId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.isApproved).toBe(true);
    expect((await anonymous().get('/api/posts')).body.items.map((p: { id: string }) => p.id)).toContain(pendingId);
    expect((await staff.get('/api/admin/posts/pending')).body.items).toHaveLength(1);
  });

  it('rejects with a reason shown to the author', async () => {
    const [pending] = (await staff.get('/api/admin/posts/pending')).body.items;
    const rejected = await staff.put(`/api/admin/posts/${pending.id}/reject`, { reason: 'Please add a source' });
    expect(rejected.body).toMatchObject({ isApproved: false, status: 'rejected', rejectionReason: 'Please add a source' });
    expect((await staff.get('/api/admin/posts/pending')).body).toEqual({ items: [], nextCursor: null });
  });

  it('refuses empty, oversized and unsafe posts with clear messages', async () => {
    const empty = await member.post('/api/posts', { content: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.fields.content).toBe('Post content is required');
    expect((await member.post('/api/posts', { content: 'x'.repeat(5001) })).status).toBe(400);
    const script = await member.post('/api/posts', { content: 'link', mediaType: 'link', mediaUrl: 'javascript:alert(1)' });
    expect(script.status).toBe(400);
    expect(script.body.fields.mediaUrl).toBeDefined();
    expect((await anonymous().post('/api/posts', { content: 'hi' })).status).toBe(401);
  });

  it('keeps HTML in a post as text', async () => {
    const post = await staff.post('/api/posts', { content: '<script>alert(1)</script><b>bold</b>' });
    expect(post.body.content).toBe('<script>alert(1)</script><b>bold</b>');
  });
});

describe('likes, shares, reports, pins and deletion', () => {
  let postId: string;
  beforeAll(async () => {
    postId = (await staff.post('/api/posts', { content: 'Like me', tags: ['likes'] })).body.id;
  });

  it('likes once per member and unlikes idempotently', async () => {
    expect((await member.put(`/api/posts/${postId}/like`)).body).toMatchObject({ likes: 1, likedByMe: true });
    expect((await member.put(`/api/posts/${postId}/like`)).body.likes).toBe(1);
    expect((await admin.put(`/api/posts/${postId}/like`)).body.likes).toBe(2);
    expect((await member.delete(`/api/posts/${postId}/like`)).body).toMatchObject({ likes: 1, likedByMe: false });
    expect((await member.delete(`/api/posts/${postId}/like`)).body.likes).toBe(1);
    expect((await anonymous().put(`/api/posts/${postId}/like`)).status).toBe(401);
    expect((await member.put('/api/posts/00000000-0000-4000-8000-000000000000/like')).status).toBe(404);
  });

  it('counts shares, including anonymous ones', async () => {
    await member.post(`/api/posts/${postId}/share`);
    const shared = await anonymous().post(`/api/posts/${postId}/share`);
    expect(shared.body.shares).toBe(2);
  });

  it('counts a report once per member on the dashboard', async () => {
    await member.post(`/api/posts/${postId}/report`, { reason: 'Off topic' });
    await member.post(`/api/posts/${postId}/report`, { reason: 'Off topic' });
    expect((await admin.get('/api/admin/stats')).body.reportedContent).toBe(1);
    expect((await staff.post(`/api/posts/${postId}/report`)).status).toBe(422);
  });

  it('pins to the top for staff only', async () => {
    expect((await member.put(`/api/admin/posts/${postId}/pin`)).status).toBe(403);
    await staff.post('/api/posts', { content: 'A newer post' });
    expect((await staff.put(`/api/admin/posts/${postId}/pin`)).body.isPinned).toBe(true);
    const feed = await member.get('/api/posts');
    expect(feed.body.items[0].id).toBe(postId);
    await staff.put(`/api/admin/posts/${postId}/unpin`);
    expect((await member.get('/api/posts')).body.items[0].id).not.toBe(postId);
  });

  it('lets the author or staff delete a post', async () => {
    const own = (await staff.post('/api/posts', { content: 'Delete me' })).body.id;
    expect((await member.delete(`/api/posts/${own}`)).status).toBe(403);
    expect((await staff.delete(`/api/posts/${own}`)).status).toBe(204);
    expect((await member.get('/api/posts')).body.items.map((p: { id: string }) => p.id)).not.toContain(own);
    expect((await staff.delete(`/api/posts/${own}`)).status).toBe(404);
  });
});

describe('filters, search and pages', () => {
  it('filters trending (more than 20 likes) and following (admin and staff authors)', async () => {
    const popular = (await staff.post('/api/posts', { content: 'Very popular' })).body.id;
    for (let i = 0; i < 21; i++) {
      const { browser } = await registerMember(site.url);
      await browser.put(`/api/posts/${popular}/like`);
    }
    const trending = await member.get('/api/posts?filter=trending');
    expect(trending.body.items.map((p: { id: string }) => p.id)).toEqual([popular]);
    const following = await member.get('/api/posts?filter=following&limit=100');
    expect(following.body.items.every((p: { author: { role: string } }) => ['admin', 'staff'].includes(p.author.role))).toBe(true);
    expect(following.body.items.length).toBeGreaterThan(0);
    expect((await member.get('/api/posts?filter=nonsense')).status).toBe(400);
  });

  it('searches content, author name and tags, case-insensitively, and filters by tag', async () => {
    const byContent = await member.get('/api/posts?q=GRANDFATHER');
    expect(byContent.body.items.map((p: { content: string }) => p.content)).toEqual(['My grandfather ran the transmitter']);
    const byAuthor = await member.get(`/api/posts?q=${encodeURIComponent('mary member')}`);
    expect(byAuthor.body.items.every((p: { author: { id: string } }) => p.author.id === memberId)).toBe(true);
    const byTag = await member.get('/api/posts?q=%23WGN');
    expect(byTag.body.items.map((p: { tags: string[] }) => p.tags)).toEqual([['wgn', 'anniversary']]);
    const tagged = await member.get('/api/posts?tag=Anniversary');
    expect(tagged.body.items).toHaveLength(1);
    expect((await member.get(`/api/posts?q=${encodeURIComponent('.*(')}`)).status).toBe(200);
  });

  it('pages with a cursor, newest first, without repeats', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { id: string }[]; nextCursor: string | null } } = await member.get(
        `/api/posts?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.items.map((p) => p.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    const all = (await member.get('/api/posts?limit=100')).body.items.map((p: { id: string }) => p.id);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
    expect((await member.get('/api/posts?cursor=garbage')).status).toBe(400);
  });

  it('reports community stats from real posts', async () => {
    const stats = (await member.get('/api/stats')).body;
    const approved = (await member.get('/api/posts?limit=100')).body.items.filter((p: { isApproved: boolean }) => p.isApproved).length;
    expect(stats.totalPosts).toBe(approved);
    expect(stats.postsThisWeek).toBe(approved);
    expect(stats.activeMembers).toBeGreaterThanOrEqual(4);
    expect(stats.onlineNow).toBe(0);
    expect(stats.trendingTags[0]).toEqual({ tag: 'anniversary', count: 1 });
    expect((await anonymous().get('/api/stats')).status).toBe(401);
  });
});
