/** Comments through HTTP on a real site: threads, replies, counts, edits, removal, reports, who may do what, the rate limit. */
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES } from '../../support/site';
import { Browser, registerMember } from '../../support/http';
import { castSite } from '../../support/cast-site';

const the = castSite(UNLIMITED_RATES);
let postId: string;
const anonymous = () => new Browser(the.site.url);

beforeAll(async () => {
  postId = (await the.staff.post('/api/posts', { content: 'Who remembers the WLS barn dance?' })).body.id;
});

const thread = async (path: string, as: Browser = the.member) =>
  (await as.get(path)).body.items as { id: string; content: string; parentId: string | null; removed: boolean; author: { name: string } }[];
const commentCount = async (id: string) =>
  (await the.member.get('/api/posts')).body.items.find((p: { id: string }) => p.id === id).comments as number;

describe('comments on a feed post', () => {
  let first: string;

  it('are written at once, trimmed, and counted on the post and its embed name', async () => {
    const written = await the.member.post(`/api/posts/${postId}/comments`, { content: '  My dad played fiddle there  ' });
    expect(written.status).toBe(201);
    expect(written.body).toMatchObject({
      targetType: 'post',
      targetId: postId,
      parentId: null,
      content: 'My dad played fiddle there',
      editedAt: null,
      removed: false,
      author: { name: 'Mona Member', role: 'member' },
    });
    first = written.body.id;
    const post = (await anonymous().get('/api/posts')).body.items.find((p: { id: string }) => p.id === postId);
    expect(post).toMatchObject({ comments: 1, commentsCount: 1 });
  });

  it('take one level of replies, and list oldest first for readers signed in or not', async () => {
    const reply = await the.other.post(`/api/posts/${postId}/comments`, { content: 'Mine ran the board', parentId: first });
    expect(reply.status).toBe(201);
    expect(reply.body.parentId).toBe(first);
    const deeper = await the.member.post(`/api/posts/${postId}/comments`, { content: 'Small world', parentId: reply.body.id });
    expect(deeper.status).toBe(422);
    expect(deeper.body.message).toBe('Replies go one level deep: reply to the comment above it');
    await the.staff.post(`/api/posts/${postId}/comments`, { content: 'Lovely memories' });
    expect((await thread(`/api/posts/${postId}/comments`, anonymous())).map((c) => c.content)).toEqual([
      'My dad played fiddle there',
      'Mine ran the board',
      'Lovely memories',
    ]);
    expect(await commentCount(postId)).toBe(3);
  });

  it('refuses what the contract refuses', async () => {
    expect((await anonymous().post(`/api/posts/${postId}/comments`, { content: 'Hi' })).status).toBe(401);
    const bySubscriber = await the.subscriber.post(`/api/posts/${postId}/comments`, { content: 'Hi' });
    expect(bySubscriber.status).toBe(403);
    const empty = await the.member.post(`/api/posts/${postId}/comments`, { content: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.fields.content).toBe('Comment cannot be empty');
    expect((await the.member.post(`/api/posts/${postId}/comments`, { content: 'x'.repeat(2001) })).body.fields.content).toBe(
      'Comment must be at most 2,000 characters',
    );
    expect((await the.member.post(`/api/posts/00000000-0000-4000-8000-000000000000/comments`, { content: 'Hi' })).status).toBe(404);
    expect(
      (await the.member.post(`/api/posts/${postId}/comments`, { content: 'Hi', parentId: '00000000-0000-4000-8000-000000000000' })).status,
    ).toBe(404);
  });

  it('opens a post to comments only once it is approved', async () => {
    const pending = (await the.member.post('/api/posts', { content: 'Waiting for approval' })).body.id;
    const byAuthor = await the.member.post(`/api/posts/${pending}/comments`, { content: 'Early' });
    expect(byAuthor.status).toBe(422);
    expect(byAuthor.body.message).toBe('Comments open once the post is approved');
    expect((await the.other.get(`/api/posts/${pending}/comments`)).status).toBe(404);
    expect((await the.other.post(`/api/posts/${pending}/comments`, { content: 'Early' })).status).toBe(404);
  });

  it('are edited by their author only', async () => {
    expect((await the.other.patch(`/api/comments/${first}`, { content: 'Not mine' })).status).toBe(403);
    expect((await the.staff.patch(`/api/comments/${first}`, { content: 'Not mine' })).status).toBe(403);
    const edited = await the.member.patch(`/api/comments/${first}`, { content: 'My dad played fiddle there, 1948 to 1952' });
    expect(edited.status).toBe(200);
    expect(edited.body.content).toBe('My dad played fiddle there, 1948 to 1952');
    expect(edited.body.editedAt).not.toBeNull();
  });

  it('are reported once per member, never by their author', async () => {
    expect((await the.member.post(`/api/comments/${first}/report`, {})).body.message).toBe('You cannot report your own comment');
    expect((await the.other.post(`/api/comments/${first}/report`, { reason: 'Off topic' })).status).toBe(200);
    expect((await the.other.post(`/api/comments/${first}/report`, {})).status).toBe(200);
  });

  it('are removed by their author or staff, leaving a line in the thread and leaving the count', async () => {
    const mine = (await the.other.post(`/api/posts/${postId}/comments`, { content: 'Delete me' })).body.id;
    expect((await the.member.delete(`/api/comments/${mine}`)).status).toBe(403);
    expect((await the.other.delete(`/api/comments/${mine}`)).status).toBe(204);
    expect((await the.staff.delete(`/api/comments/${first}`)).status).toBe(204);
    expect((await the.staff.delete(`/api/comments/${first}`)).status).toBe(204);
    const removed = (await thread(`/api/posts/${postId}/comments`)).filter((c) => c.removed);
    expect(removed.map((c) => c.id).sort()).toEqual([first, mine].sort());
    expect(removed.every((c) => c.content === '')).toBe(true);
    expect(await commentCount(postId)).toBe(2);
    expect((await the.member.patch(`/api/comments/${first}`, { content: 'Back' })).status).toBe(422);
    const toRemoved = await the.other.post(`/api/posts/${postId}/comments`, { content: 'Reply', parentId: first });
    expect(toRemoved.body.message).toBe('You cannot reply to a removed comment');
  });
});

describe('comments on blog posts', () => {
  it('are open on published posts only, and counted on the post', async () => {
    const draft = (await the.staff.post('/api/blog', { title: 'The first sign-on', content: '<p>It was 1922.</p>' })).body.id;
    expect((await the.member.post(`/api/blog/${draft}/comments`, { content: 'Hi' })).status).toBe(404);
    expect((await the.staff.post(`/api/blog/${draft}/publish`)).status).toBe(200);
    const written = await the.member.post(`/api/blog/${draft}/comments`, { content: 'Wonderful piece' });
    expect(written.status).toBe(201);
    expect(written.body.targetType).toBe('blog');
    expect((await anonymous().get(`/api/blog/${draft}`)).body.comments).toBe(1);
    expect((await thread(`/api/blog/${draft}/comments`, anonymous())).map((c) => c.content)).toEqual(['Wonderful piece']);
    expect((await the.other.post(`/api/posts/${draft}/comments`, { content: 'Wrong door' })).status).toBe(404);
  });
});

describe('the comment rate limit', () => {
  it('answers 429 past RATE_LIMIT_COMMENT_MAX a minute', async () => {
    const limited = await startTestSite({ ...UNLIMITED_RATES, RATE_LIMIT_COMMENT_MAX: '3' });
    try {
      const author = (await registerMember(limited.url)).browser;
      const post = (await author.post('/api/posts', { content: 'Admin post' })).body.id;
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await author.post(`/api/posts/${post}/comments`, { content: `Comment ${i}` })).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
    } finally {
      await limited.close();
    }
  });
});
