/**
 * A command answers as a read would: on a post or comment the caller may not see (another member's pending post, a
 * post staff took down, a comment under one, a comment under an unpublished blog post) every command answers 404,
 * the same as for an id that never existed, and appends nothing. Before, `DELETE /api/posts/{id}/like` answered any
 * signed-in account the whole post whatever its status, and reporting a comment under a hidden post worked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../support/site';
import { Browser, registerCast } from '../support/http';
import { streamName } from '../../shared/streams';

let site: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;
const visitor = () => new Browser(site.url);
const streamLength = async (stream: string) => (await site.services.eventStore.readStream(stream)).length;

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  cast = await registerCast(site.url);
});
afterAll(async () => {
  await site?.close();
});

/** Every command one may try on a post, as [method, path, body]. */
const postCommands = (id: string): [string, string, unknown][] => [
  ['PUT', `/api/posts/${id}/like`, {}],
  ['DELETE', `/api/posts/${id}/like`, {}],
  ['POST', `/api/posts/${id}/report`, { reason: 'spam' }],
  ['POST', `/api/posts/${id}/share`, {}],
  ['POST', `/api/posts/${id}/comments`, { content: 'Hello' }],
  ['DELETE', `/api/posts/${id}`, {}],
];
const commentCommands = (id: string): [string, string, unknown][] => [
  ['PATCH', `/api/comments/${id}`, { content: 'Edited' }],
  ['POST', `/api/comments/${id}/report`, { reason: 'spam' }],
  ['DELETE', `/api/comments/${id}`, {}],
];

async function expectHidden(who: Browser, commands: [string, string, unknown][], stream: string) {
  const before = await streamLength(stream);
  for (const [method, path, body] of commands) {
    const answer = await who.request(method, path, body);
    expect({ method, path, status: answer.status }).toEqual({ method, path, status: 404 });
    expect(JSON.stringify(answer.body)).not.toMatch(/content|author/u);
  }
  expect(await streamLength(stream)).toBe(before);
}

describe('commands on what the caller may not see', () => {
  it('answer 404 for another member’s pending post, to members, subscribers and visitors alike, as for an unknown id', async () => {
    const pending = await cast.member.browser.post('/api/posts', { content: 'Waiting for moderation' });
    expect(pending.body.status).toBe('pending');
    const id = pending.body.id as string;
    for (const who of [cast.other.browser, cast.subscriber.browser]) await expectHidden(who, postCommands(id), streamName('post', id));
    expect((await visitor().post(`/api/posts/${id}/share`)).status).toBe(404);
    await expectHidden(cast.other.browser, postCommands(randomUUID()), streamName('post', randomUUID()));
    // The author and staff still see it, and what they may do works as before.
    expect((await cast.member.browser.delete(`/api/posts/${id}/like`)).status).toBe(200);
    expect((await cast.staff.browser.delete(`/api/posts/${id}/like`)).status).toBe(200);
  });

  it('answer 404 for a post staff took down, and for the comments under it', async () => {
    const post = await cast.staff.browser.post('/api/posts', { content: 'Soon taken down' });
    const id = post.body.id as string;
    expect((await cast.other.browser.put(`/api/posts/${id}/like`)).status).toBe(200);
    const comment = await cast.other.browser.post(`/api/posts/${id}/comments`, { content: 'A comment soon hidden' });
    expect(comment.status).toBe(201);
    expect((await cast.admin.browser.put(`/api/admin/posts/${id}/reject`, { reason: 'Off topic' })).status).toBe(200);

    await expectHidden(cast.member.browser, postCommands(id), streamName('post', id));
    // Even the comment's own author no longer sees it: the post above it is gone from the feed.
    await expectHidden(cast.other.browser, commentCommands(comment.body.id), streamName('comment', comment.body.id));
    await expectHidden(cast.member.browser, commentCommands(comment.body.id), streamName('comment', comment.body.id));
    expect((await cast.staff.browser.post(`/api/comments/${comment.body.id}/report`, { reason: 'spam' })).status).not.toBe(404);
  });

  it('answer 404 for a comment under an unpublished blog post, except to staff', async () => {
    const blog = await cast.admin.browser.post('/api/blog', { title: 'Soon a draft again', content: '<p>Text</p>', isPublished: true });
    const comment = await cast.other.browser.post(`/api/blog/${blog.body.id}/comments`, { content: 'On the blog' });
    expect(comment.status).toBe(201);
    expect((await cast.admin.browser.post(`/api/blog/${blog.body.id}/unpublish`)).status).toBe(200);

    await expectHidden(cast.member.browser, commentCommands(comment.body.id), streamName('comment', comment.body.id));
    await expectHidden(cast.other.browser, commentCommands(comment.body.id), streamName('comment', comment.body.id));
    expect((await cast.staff.browser.delete(`/api/comments/${comment.body.id}`)).status).toBe(204);
  });
});
