import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from '../support/database';
import { dayKey } from '../../shared/events/dates';

const run = promisify(execFile);
let database: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  database = await createTestDatabase();
  env = {
    ...process.env,
    DATABASE_URL: database.url,
    REDIS_PREFIX: testRedisPrefix(),
    SCRYPT_N: '1024',
    SESSION_SECRET: 'seed-test-secret-seed-test-secret-0123',
  };
});
afterAll(async () => {
  await database?.drop();
});

describe('npm run seed:demo', () => {
  it('seeds a fresh database through the real commands, and refuses one that has events', async () => {
    const first = await run('npx', ['tsx', 'scripts/seed-demo.ts'], { env });
    expect(first.stdout).toMatch(/Seeded 15 members/);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const roles = await client.query<{ role: string; n: number }>(
        `SELECT doc->>'role' AS role, count(*)::int AS n FROM rm_members GROUP BY 1 ORDER BY 1`,
      );
      expect(Object.fromEntries(roles.rows.map((r) => [r.role, r.n]))).toEqual({ admin: 2, member: 7, staff: 3, subscriber: 3 });
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE type = 'PostSubmitted'`);
      expect(rows[0]!.n).toBe(7);
      // A conversation under the first posts, counted on them: seven comments, two of them replies.
      const talk = await client.query<{ n: number; replies: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE doc->>'parentId' IS NOT NULL)::int AS replies FROM rm_comments`,
      );
      expect(talk.rows[0]).toEqual({ n: 7, replies: 2 });
      const counted = await client.query<{ n: number }>(`SELECT coalesce(sum((doc->>'comments')::int), 0)::int AS n FROM rm_feed_posts`);
      expect(counted.rows[0]!.n).toBe(7);
      // Discussions: three categories, each with a topic and its replies.
      const discussions = await client.query<{ categories: number; topics: number; replies: number }>(
        `SELECT (SELECT count(*)::int FROM rm_discussion_categories WHERE (doc->>'topicCount')::int = 1) AS categories,
                (SELECT count(*)::int FROM rm_discussion_topics) AS topics,
                (SELECT coalesce(sum((doc->>'replyCount')::int), 0)::int FROM rm_discussion_topics) AS replies`,
      );
      expect(discussions.rows[0]).toEqual({ categories: 3, topics: 3, replies: 6 });
      // Every demo event starts and ends on the same day, on the community's clock and in UTC.
      const events = await client.query<{ start: string; end: string }>(
        `SELECT doc->>'startDate' AS start, doc->>'endDate' AS end FROM rm_event_calendar`,
      );
      expect(events.rows.length).toBeGreaterThan(0);
      for (const { start, end } of events.rows)
        for (const zone of ['America/Chicago', 'UTC']) expect(dayKey(end, zone)).toBe(dayKey(start, zone));

      const second = await run('npx', ['tsx', 'scripts/seed-demo.ts'], { env }).catch((error: { code: number; stderr: string }) => error);
      expect(second).toMatchObject({ code: 1 });
      expect((second as { stderr: string }).stderr).toMatch(/not empty/);
      const after = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
      expect(after.rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  }, 120_000); // two tsx processes running every command: far longer than one request on a busy machine
});
