/**
 * One runner at a time (platform/projections/leadership.ts): of two processes (two pools here), one leads, the
 * other takes over when the leader stops or loses its lock connection, and never both at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createLeadership, type Leadership } from '../../platform/projections/leadership';

const LOCK = 0x7465_7374;
let database: TestDatabase;
const pools: pg.Pool[] = [];
const leaderships: Leadership[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  // A failed test leaves its contenders running; their lock connections would keep the pools from ending.
  await Promise.all(leaderships.map((leadership) => leadership.stop()));
  await Promise.all(pools.map((pool) => pool.end()));
  await database?.drop();
});

function contender(
  name: string,
  running: Set<string>,
  errors: string[],
  options: { failsToStart?: number; takeOverEveryMs?: number } = {},
) {
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  pool.on('error', () => undefined);
  pools.push(pool);
  const calls = { lead: 0, follow: 0 };
  const leadership = createLeadership({
    pool,
    lockKey: LOCK,
    what: `runner ${name}`,
    logger: { info: () => undefined, error: (_fields: unknown, message?: string) => void errors.push(String(message)) },
    takeOverEveryMs: options.takeOverEveryMs ?? 50,
    async lead() {
      calls.lead++;
      if (calls.lead <= (options.failsToStart ?? 0)) throw new Error('the runner could not start');
      running.add(name);
    },
    async follow() {
      calls.follow++;
      running.delete(name);
    },
  });
  leaderships.push(leadership);
  return { leadership, calls };
}

describe('leadership of a runner', () => {
  it('runs the work in one process at a time and hands it over when the leader stops or loses its connection', async () => {
    const running = new Set<string>();
    const errors: string[] = [];
    const a = contender('a', running, errors);
    const b = contender('b', running, errors);
    await a.leadership.start();
    await b.leadership.start();
    expect([a.leadership.leading(), b.leadership.leading()]).toEqual([true, false]);
    expect([...running]).toEqual(['a']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...running]).toEqual(['a']);

    // A graceful stop: the other takes over within a few of its attempts.
    await a.leadership.stop();
    expect(a.calls).toEqual({ lead: 1, follow: 1 });
    await expect.poll(() => b.leadership.leading(), { timeout: 2000, interval: 10 }).toBe(true);
    expect([...running]).toEqual(['b']);

    // The leader's lock connection is cut (a network failure or an administrator): it stops its work at once and
    // goes back to trying, while the other process takes the lock.
    await a.leadership.start();
    expect(a.leadership.leading()).toBe(false);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const { rows } = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND granted",
      [LOCK],
    );
    expect(rows).toHaveLength(1);
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    await admin.end();
    await expect.poll(() => b.calls.follow, { timeout: 2000, interval: 10 }).toBe(1);
    expect(errors).toContainEqual(expect.stringContaining('runner b lost its lock connection'));
    await expect.poll(() => running.size, { timeout: 2000, interval: 10 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(running.size).toBe(1);
    expect(a.leadership.leading() !== b.leadership.leading()).toBe(true);

    await Promise.all([a.leadership.stop(), b.leadership.stop()]);
    expect(running.size).toBe(0);
  });

  it('leads only once the work runs, and gives the lock up when the work fails to start or stops by itself', async () => {
    const running = new Set<string>();
    const errors: string[] = [];
    // It tries again only after a minute here, so that its next attempt (which would start) cannot take the lock first.
    const failing = contender('failing', running, errors, { failsToStart: 1, takeOverEveryMs: 60_000 });
    const other = contender('other', running, errors);
    await failing.leadership.start();
    // Its work did not start: it does not lead, and the lock is free for the other process.
    expect(failing.leadership.leading()).toBe(false);
    expect(errors).toContainEqual(expect.stringContaining('could not take over runner failing'));
    await other.leadership.start();
    expect(other.leadership.leading()).toBe(true);

    // The leader's work stops for good by itself: the lock goes back, and a process takes over.
    await other.leadership.stopped();
    expect(other.leadership.leading()).toBe(false);
    expect(other.calls.follow).toBe(1);
    await expect.poll(() => running.size, { timeout: 2000, interval: 10 }).toBe(1);
    expect(failing.leadership.leading() !== other.leadership.leading()).toBe(true);
    await Promise.all([failing.leadership.stop(), other.leadership.stop()]);
    expect(running.size).toBe(0);
  });

  it('stops trying to take over once stopped, even while its first attempt was under way', async () => {
    const running = new Set<string>();
    const errors: string[] = [];
    const leader = contender('leader', running, errors);
    const late = contender('late', running, errors);
    const latePool = pools.at(-1)!;
    await leader.leadership.start();
    const starting = late.leadership.start();
    await late.leadership.stop();
    await starting;
    // The lock comes free: a process that was stopped does not take it, nor keeps trying on a connection of its pool.
    await leader.leadership.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(late.calls.lead).toBe(0);
    expect(running.size).toBe(0);
    expect(latePool.totalCount - latePool.idleCount).toBe(0);
  });
});
