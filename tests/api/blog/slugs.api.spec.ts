/**
 * A blog post's address (docs/domain/blog.md#addresses): a slug made from the title, unique across posts (-2, -3…),
 * editable by staff, kept in the events so a rebuild gives the same; the id and every earlier slug answer 301 to it,
 * on the public page and in the API; and every link the site prints names it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerMember } from '../../support/http';
import { blogPostDecider } from '../../../shared/blog/blog-stream';
import { streamName } from '../../../shared/streams';
import { blogPosts } from '../../../projections/blog';

let site: TestSite;
let staff: Browser;
let member: Browser;
const visitor = () => new Browser(site.url);

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000', SECURE_COOKIES: 'false' });
  const admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  const { browser, user } = await registerMember(site.url, { firstName: 'Sally', lastName: 'Editor' });
  expect((await admin.put(`/api/admin/users/${user.id}/role`, { role: 'staff' })).status).toBe(200);
  staff = browser;
  member = (await registerMember(site.url, { firstName: 'Rita', lastName: 'Reader' })).browser;
});
afterAll(async () => {
  await site?.close();
});

type Post = { id: string; slug: string; title: string; isPublished: boolean };
async function create(title: string, extra: Record<string, unknown> = {}): Promise<Post> {
  const response = await staff.post('/api/blog', { title, content: '<p>Text</p>', isPublished: true, ...extra });
  expect(response.status).toBe(201);
  return response.body as Post;
}
const edit = (post: Post, body: Record<string, unknown>) =>
  staff.patch(`/api/blog/${post.id}`, { title: post.title, excerpt: '', content: '<p>Text</p>', ...body });

describe('slugs', () => {
  it('are made from the title, unique across posts with -2, -3…', async () => {
    const first = await create('Wave Tower, 1962: the Story!');
    const second = await create('Wave tower 1962 — the story');
    const third = await create('WAVE TOWER 1962 THE STORY');
    expect([first.slug, second.slug, third.slug]).toEqual([
      'wave-tower-1962-the-story',
      'wave-tower-1962-the-story-2',
      'wave-tower-1962-the-story-3',
    ]);
    const accents = await create('Élan à la Radió');
    expect(accents.slug).toBe('elan-a-la-radio');
  });

  it('two posts of one title written at the same moment never share a slug', async () => {
    const posts = await Promise.all(Array.from({ length: 4 }, () => create('Simultaneous column')));
    expect(new Set(posts.map((post) => post.slug)).size).toBe(4);
    expect(posts.map((post) => post.slug).sort()).toEqual([
      'simultaneous-column',
      'simultaneous-column-2',
      'simultaneous-column-3',
      'simultaneous-column-4',
    ]);
  });

  it('GET /api/blog/{idOrSlug} answers by id and by slug', async () => {
    const post = await create('Answered both ways');
    for (const address of [post.id, post.slug, post.slug.toUpperCase()]) {
      const response = await visitor().get(`/api/blog/${address}`);
      expect(response.status, address).toBe(200);
      expect(response.body).toMatchObject({ id: post.id, slug: 'answered-both-ways' });
    }
    expect((await visitor().get('/api/blog/no-such-post')).status).toBe(404);
  });

  it('staff edit the slug; a taken one gets the next free number; bad ones are 400 with the field named', async () => {
    const post = await create('Edited address');
    const other = await create('Taken address');
    const renamed = await edit(post, { slug: '  My-New-Address ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.slug).toBe('my-new-address');
    const clash = await edit(post, { slug: other.slug });
    expect(clash.body.slug).toBe('taken-address-2');
    for (const bad of ['two words', 'dash-', 'ünïcode', '00000000-0000-4000-8000-000000000000', ''])
      expect((await edit(post, { slug: bad })).body.fields, bad).toHaveProperty('slug');
    // Editing the title leaves the address alone.
    expect((await edit(post, { title: 'Another title' })).body.slug).toBe('taken-address-2');
    // Members may not.
    expect((await member.patch(`/api/blog/${post.id}`, { title: 'x', content: '<p>x</p>', slug: 'mine' })).status).toBe(403);
  });

  it('the id and every earlier slug answer 301 to the current address: the page and the API', async () => {
    const post = await create('First address');
    await edit(post, { slug: 'second-address' });
    await edit(post, { slug: 'third-address' });
    for (const reader of [visitor(), member, staff]) {
      for (const old of [post.id, 'first-address', 'second-address']) {
        const page = await reader.get(`/blog/${old}`);
        expect(page.status, old).toBe(301);
        expect(page.headers.get('location')).toBe('/blog/third-address');
      }
      for (const old of ['first-address', 'second-address']) {
        const api = await reader.get(`/api/blog/${old}`);
        expect(api.status, old).toBe(301);
        expect(api.headers.get('location')).toBe('/api/blog/third-address');
      }
    }
    const page = await visitor().get('/blog/third-address');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<link rel="canonical" href="' + site.url + '/blog/third-address"');
    expect(page.body).toContain('First address');
    // Back to an earlier slug: it is the post's own again, and the one it leaves leads to it.
    expect((await edit(post, { slug: 'first-address' })).body.slug).toBe('first-address');
    expect((await visitor().get('/blog/first-address')).status).toBe(200);
    expect((await visitor().get('/blog/third-address')).headers.get('location')).toBe('/blog/first-address');
  });

  it('a draft stays hidden at every address; staff are sent on to it', async () => {
    const draft = await create('Hidden draft', { isPublished: false });
    await edit(draft, { slug: 'hidden-draft-renamed' });
    for (const address of [draft.id, 'hidden-draft', 'hidden-draft-renamed']) {
      expect((await visitor().get(`/blog/${address}`)).status, address).toBe(404);
      expect((await visitor().get(`/api/blog/${address}`)).status, address).toBe(404);
      expect((await member.get(`/api/blog/${address}`)).status, address).toBe(404);
    }
    expect((await staff.get('/blog/hidden-draft')).headers.get('location')).toBe('/blog/hidden-draft-renamed');
    expect((await staff.get('/api/blog/hidden-draft-renamed')).body.id).toBe(draft.id);
  });

  it('every link names the slug: lists, RSS, sitemap, bookmarks', async () => {
    const post = await create('Linked everywhere');
    const list = await visitor().get('/api/blog?limit=100');
    expect(list.body.items.find((item: Post) => item.id === post.id).slug).toBe('linked-everywhere');
    const rss = await visitor().get('/rss');
    expect(rss.body).toContain('/blog/linked-everywhere</link>');
    expect(rss.body).not.toContain(`<link>${site.url}/blog/${post.id}`);
    const sitemap = await visitor().get('/sitemap.xml');
    expect(sitemap.body).toContain('/blog/linked-everywhere<');
    expect(sitemap.body).not.toContain(`/blog/${post.id}`);
    expect((await member.put(`/api/bookmarks/blog/${post.id}`)).status).toBe(200);
    const bookmarks = JSON.stringify((await member.get('/api/bookmarks')).body);
    expect(bookmarks).toContain('/blog/linked-everywhere');
  });

  it('posts written before slugs get one from their title, in log order, the same after a rebuild', async () => {
    const staffActor = { id: randomUUID(), role: 'staff' as const };
    const ids = [randomUUID(), randomUUID()];
    // As the log holds them from before slugs: no slug in the events.
    for (const id of ids)
      await site.services.handle(blogPostDecider, streamName('blog', id), {
        type: 'CreateBlogPost',
        data: {
          id,
          title: 'Old Times',
          excerpt: '',
          content: '<p>Old</p>',
          tags: [],
          isPublished: true,
          isPinned: false,
          isFeatured: false,
        },
        metadata: { now: new Date(), actor: staffActor },
      });
    const slugs = async () => Promise.all(ids.map(async (id) => (await blogPosts(site.services.store).findOne({ _id: id }))!.slug));
    expect(await slugs()).toEqual(['old-times', 'old-times-2']);
    expect((await visitor().get(`/blog/${ids[1]}`)).headers.get('location')).toBe('/blog/old-times-2');
    // A new post of that title does not take theirs.
    expect((await create('Old times')).slug).toBe('old-times-3');

    const before = (await blogPosts(site.services.store).find({}, { sort: { _id: 1 } })).map((post) => [
      post._id,
      post.slug,
      post.oldSlugs,
    ]);
    const { runner } = site.services;
    await runner.stop();
    await runner.reset();
    await runner.start();
    await expect
      .poll(
        async () =>
          (await blogPosts(site.services.store).find({}, { sort: { _id: 1 } })).map((post) => [post._id, post.slug, post.oldSlugs]),
        { timeout: 20_000 },
      )
      .toEqual(before);
  });
});
