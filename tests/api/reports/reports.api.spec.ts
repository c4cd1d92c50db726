/** The reports queue through HTTP: grouped by target, reasons and reporters, dismiss and remove, staff only, the figures. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../../support/site';
import { Browser, registerAdminAndStaff, registerMember } from '../../support/http';

let site: TestSite;
let admin: Browser;
let staff: Browser;
let author: Browser;
let authorId: string;
const readers: Browser[] = [];

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  ({
    admin: { browser: admin },
    staff: { browser: staff },
  } = await registerAdminAndStaff(site.url));
  ({
    browser: author,
    user: { id: authorId },
  } = await registerMember(site.url, { firstName: 'Rex', lastName: 'Rude' }));
  for (let i = 0; i < 3; i++) readers.push((await registerMember(site.url)).browser);
});
afterAll(async () => {
  await site?.close();
});

const queue = async () =>
  (await staff.get('/api/admin/reports')).body.items as {
    targetType: string;
    targetId: string;
    excerpt: string;
    author: { id: string; name: string };
    reasons: string[];
    reporters: number;
    thread: unknown;
  }[];
const reported = async () => (await staff.get('/api/admin/stats')).body.reportedContent as number;

describe('the reports queue', () => {
  let postId: string;
  let commentId: string;
  let threadOf: string;

  it('groups the reports of each post and comment, with reasons and reporters, first reported first', async () => {
    const post = (await admin.post('/api/posts', { content: 'A post about the 1950s', tags: [] })).body.id;
    postId = (await staff.post('/api/posts', { content: 'Rex wrote this? No, staff did' })).body.id;
    threadOf = post;
    commentId = (await author.post(`/api/posts/${post}/comments`, { content: 'Something rude about engineers' })).body.id;
    expect((await readers[0]!.post(`/api/comments/${commentId}/report`, { reason: 'Rude' })).status).toBe(200);
    expect((await readers[1]!.post(`/api/comments/${commentId}/report`, {})).status).toBe(200);
    expect((await readers[2]!.post(`/api/comments/${commentId}/report`, { reason: 'Insulting' })).status).toBe(200);
    expect((await readers[2]!.post(`/api/comments/${commentId}/report`, { reason: 'Again' })).status).toBe(200);
    expect((await readers[0]!.post(`/api/posts/${postId}/report`, { reason: 'Spam' })).status).toBe(200);

    expect(await queue()).toEqual([
      {
        targetType: 'comment',
        targetId: commentId,
        excerpt: 'Something rude about engineers',
        author: { id: authorId, name: 'Rex Rude' },
        reasons: ['Rude', 'Insulting'],
        reporters: 3,
        firstReportedAt: expect.any(String),
        thread: { targetType: 'post', targetId: post },
      },
      {
        targetType: 'post',
        targetId: postId,
        excerpt: 'Rex wrote this? No, staff did',
        author: expect.objectContaining({ name: 'Stan Staff' }),
        reasons: ['Spam'],
        reporters: 1,
        firstReportedAt: expect.any(String),
        thread: null,
      },
    ]);
    expect(await reported()).toBe(2);
  });

  it('is for staff only', async () => {
    expect((await readers[0]!.get('/api/admin/reports')).status).toBe(403);
    expect((await readers[0]!.put(`/api/admin/reports/post/${postId}/dismiss`)).status).toBe(403);
    expect((await new Browser(site.url).get('/api/admin/reports')).status).toBe(401);
  });

  it('follows an edit of a reported comment', async () => {
    await author.patch(`/api/comments/${commentId}`, { content: 'Something kinder about engineers' });
    expect((await queue())[0]!.excerpt).toBe('Something kinder about engineers');
  });

  it('closes on dismissal, keeping the content, which members may report again', async () => {
    expect((await staff.put(`/api/admin/reports/post/${postId}/dismiss`)).status).toBe(204);
    expect((await queue()).map((entry) => entry.targetType)).toEqual(['comment']);
    expect((await admin.get('/api/posts')).body.items.find((p: { id: string }) => p.id === postId).reports).toBe(0);
    expect((await staff.put(`/api/admin/reports/post/${postId}/dismiss`)).status).toBe(404);
    expect((await readers[0]!.post(`/api/posts/${postId}/report`, { reason: 'Still spam' })).status).toBe(200);
    expect((await queue()).find((entry) => entry.targetId === postId)!.reasons).toEqual(['Still spam']);
  });

  it('closes on removal, taking the content down', async () => {
    expect((await admin.put(`/api/admin/reports/comment/${commentId}/remove`)).status).toBe(204);
    expect((await readers[0]!.get(`/api/posts/${threadOf}/comments`)).body.items).toMatchObject([
      { id: commentId, removed: true, content: '' },
    ]);
    expect((await queue()).map((entry) => entry.targetType)).toEqual(['post']);
    expect((await admin.put(`/api/admin/reports/post/${postId}/remove`)).status).toBe(204);
    expect(await queue()).toEqual([]);
    expect(await reported()).toBe(0);
    expect((await admin.get('/api/posts')).body.items.map((p: { id: string }) => p.id)).not.toContain(postId);
  });

  it('keeps who resolved each report in the log', async () => {
    const pool = new pg.Pool({ connectionString: site.services.config.databaseUrl });
    try {
      const { rows } = await pool.query(
        `select type, data->>'by' as by from events where type in ('PostReportsDismissed', 'CommentRemoved', 'PostDeleted') order by position`,
      );
      expect(rows.map((row) => row.type)).toEqual(['PostReportsDismissed', 'CommentRemoved', 'PostDeleted']);
      expect(rows.every((row) => typeof row.by === 'string' && row.by.length > 0)).toBe(true);
    } finally {
      await pool.end();
    }
  });
});
