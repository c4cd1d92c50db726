/**
 * The PostgreSQL event store under concurrent writers: optimistic concurrency
 * yields exactly one winner, and a subscriber sees every committed event exactly
 * once, in global order, even when transactions commit out of order and when it
 * resumes from a checkpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createPostgresEventStore } from '../../server/infrastructure/event-store/postgres';
import { type EventStore, type RecordedEvent, WrongExpectedVersionError } from '../../server/infrastructure/event-store/port';

let database: TestDatabase;
let pool: pg.Pool;
let store: EventStore;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 20 });
  store = await createPostgresEventStore({ pool });
});
afterAll(async () => {
  await store?.close();
  await pool?.end();
  await database?.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL event store under concurrency', () => {
  it('lets exactly one of 20 appends with the same expected version win', async () => {
    await store.append('race-1', [{ type: 'Opened', data: {} }], { expectedVersion: 'no_stream' });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => store.append('race-1', [{ type: 'Claimed', data: { by: i } }], { expectedVersion: 0 })),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    expect(lost.every((r) => r.reason instanceof WrongExpectedVersionError)).toBe(true);
    expect(await store.readStream('race-1')).toHaveLength(2);
  });

  it('never skips an event committed out of order, and resumes from a checkpoint exactly once', async () => {
    const writers = 8;
    const perWriter = 150;
    const seen: RecordedEvent[] = [];
    let controller = new AbortController();
    const subscribe = async (after: number, stopAfter: number) => {
      for await (const event of store.subscribeToAll({ after, signal: controller.signal })) {
        seen.push(event);
        if (seen.length >= stopAfter) controller.abort();
      }
    };
    // The first subscriber stops part-way, as a crashed process would.
    const firstRun = subscribe(0, 300);

    // Large batches hold their transaction longer, while single appends commit around them.
    const batchWriter = (async () => {
      for (let i = 0; i < 10; i++) {
        await store.append(`batch-${i}`, Array.from({ length: 100 }, (_, n) => ({ type: 'Batched', data: { i, n, padding: 'x'.repeat(500) } })), { expectedVersion: 'no_stream' });
      }
    })();
    const fastWriters = Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < perWriter; i++) {
        await store.append(`writer-${w}`, [{ type: 'Written', data: { w, i } }], { expectedVersion: i === 0 ? 'no_stream' : i - 1 });
        if (i % 25 === 0) await sleep(Math.random() * 5);
      }
    });
    await Promise.all([...fastWriters, batchWriter]);
    await firstRun;

    const checkpoint = seen.at(-1)!.position;
    controller = new AbortController();
    const { rows } = await pool.query<{ count: string }>('SELECT count(*) FROM events');
    const total = Number(rows[0]!.count);
    await subscribe(checkpoint, total);

    const positions = seen.map((e) => e.position);
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    const { rows: all } = await pool.query<{ id: string }>('SELECT id FROM events ORDER BY position');
    expect(seen.map((e) => e.id)).toEqual(all.map((r) => r.id));
    expect(seen.length).toBe(total);
  });
});
