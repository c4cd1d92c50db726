/**
 * The export a person can read (docs/domain/members.md#export), for an account the demo seed made: its documents
 * (account, posts, comments, events, RSVPs, …) with plain field names and no event types or stream names, and the raw
 * log as the appendix, complete even for content appended without an actor in the metadata (as the seed once did).
 */
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite, steadyHead } from '../../support/site';
import { Browser, registerMember } from '../../support/http';
import { createCommandHandler } from '../../../platform/command-handler';
import { streamName } from '../../../shared/streams';
import { postDecider } from '../../../shared/feed/post-stream';
import { feedPosts } from '../../../projections/feed';
import { membersCollection } from '../../../projections/members';

const run = promisify(execFile);
/** scripts/seed-demo.ts's (importing it would run the seed). */
const DEMO_PASSWORD = 'broadcast-history';
let site: TestSite;

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  // The seed runs the projections itself; the site's runner waits meanwhile, as for a rebuild.
  await site.services.readModels.stop();
  const { config } = site.services;
  const seeded = await run('npx', ['tsx', 'scripts/seed-demo.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: config.databaseUrl,
      REDIS_PREFIX: config.redisPrefix,
      SCRYPT_N: '1024',
      SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
      PUBLIC_URL: 'http://localhost:3000',
    },
  });
  expect(seeded.stdout).toMatch(/Seeded 15 members/);
  await site.services.readModels.start();
  await site.services.progress.waitFor(await steadyHead(site.services.eventStore), 30_000);
}, 180_000);
afterAll(async () => {
  await site?.close();
});

describe('the export of a seeded account', () => {
  it('lists its posts and comments as readable documents, and its raw log in the appendix', async () => {
    const { store } = site.services;
    // A seeded member who wrote posts.
    const posts = await feedPosts(store).find({ 'author.role': 'member' }, { sort: { createdAt: 1, _id: 1 } });
    const authorId = posts[0]!.authorId;
    const member = (await membersCollection(store).findOne({ _id: authorId }))!;
    // And one more post of theirs appended as the seed used to append: no actor in the log's metadata.
    const extra = randomUUID();
    const handle = createCommandHandler({ eventStore: site.services.eventStore, progress: site.services.progress });
    await handle(postDecider, streamName('post', extra), {
      type: 'SubmitPost',
      data: { id: extra, content: 'Appended without an actor', tags: [], mediaType: null, mediaUrl: null, mediaTitle: null },
      metadata: { now: new Date(), actor: { id: authorId, role: 'member' } },
    });
    const own = (await feedPosts(store).find({ authorId }, { sort: { createdAt: 1, _id: 1 } })).map((post) => post._id);
    expect(own).toContain(extra);

    const browser = new Browser(site.url);
    expect((await browser.post('/api/auth/login', { email: member.email, password: DEMO_PASSWORD })).status).toBe(200);
    const exported = await browser.get('/api/me/export');
    expect(exported.status).toBe(200);
    const { activity, ...documents } = exported.body as Record<string, unknown> & {
      activity: { type: string; stream: string; data: { id?: string } }[];
    };

    // Documents: every post of theirs, with plain fields.
    const listed = documents.posts as Record<string, unknown>[];
    expect(listed.map((post) => post.id)).toEqual(own);
    expect(listed.find((post) => post.id === extra)).toEqual({
      id: extra,
      text: 'Appended without an actor',
      tags: [],
      media: null,
      status: 'pending',
      rejectionReason: null,
      postedAt: expect.any(String),
      editedAt: null,
      likes: 0,
      comments: 0,
      url: `${site.services.config.publicUrl}/posts/${extra}`,
    });
    expect(documents.account).toMatchObject({ id: authorId, email: member.email, displayName: `${member.firstName} ${member.lastName}` });
    for (const part of ['posts', 'blogPosts', 'comments', 'events', 'rsvps', 'subscriptions', 'sessions', 'uploads'])
      expect(Array.isArray(documents[part]), part).toBe(true);
    // The seed makes members RSVP to the upcoming events and talk under the posts.
    expect((documents.rsvps as { answer: string }[]).every((rsvp) => rsvp.answer === 'attending')).toBe(true);
    for (const comment of documents.comments as { on: { kind: string } }[]) expect(['post', 'blog post']).toContain(comment.on.kind);
    // No event types or stream names in the documents: those are the appendix's.
    const text = JSON.stringify(documents);
    expect(text).not.toMatch(/PostSubmitted|CommentWritten|MemberRegistered|"type":|"stream":|post-[0-9a-f]{8}-/u);

    // The appendix: the raw log, complete, the seeded posts and the one appended without an actor included.
    const submitted = activity.filter((event) => event.type === 'PostSubmitted').map((event) => event.data.id);
    expect(submitted.sort()).toEqual([...own].sort());
    expect(activity.map((event) => event.type)).toContain('MemberRegistered');
  }, 60_000);

  it('hands out the entries earlier versions left, in their places, until the rebuild replaces them', async () => {
    const { user, browser } = await registerMember(site.url);
    const before = (await browser.get('/api/me/export')).body.activity as { type: string }[];
    expect(before.length).toBeGreaterThan(0);
    const { user: other } = await registerMember(site.url);
    const [registered] = await site.services.eventStore.readEvents([{ streamName: streamName('member', other.id), version: 0 }]);
    // As the live collection holds them after a deployment, while the new version is built beside it: a copy (version
    // 3), first of all, and a place under the event's id (version 4), here the other member's registration, last.
    const copied = { at: '2020-01-02T03:04:05.000Z', stream: `member-${user.id}`, type: 'MemberNoted', data: { note: 'as copied' } };
    await site.services.store.collection('member_activity').insertMany([
      { _id: `${user.id}:copied`, _position: 0, memberId: user.id, ...copied },
      {
        _id: `${user.id}:${registered!.id}`,
        _position: registered!.position,
        memberId: user.id,
        stream: registered!.streamName,
        version: 0,
      },
    ]);
    const activity = (await browser.get('/api/me/export')).body.activity as { stream: string; type: string }[];
    expect(activity.slice(0, -1)).toEqual([copied, ...before]);
    expect(activity.at(-1)).toMatchObject({ stream: streamName('member', other.id), type: 'MemberRegistered' });
  });
});
