/**
 * The PostgreSQL event store under concurrent writers (the contract suite races appends on every adapter):
 * a subscriber sees every committed event exactly
 * once, in global order, while transactions commit out of order and when it
 * resumes from a checkpoint.
 *
 * Out-of-order commits are forced through the adapter itself: a deferred
 * constraint trigger sleeps inside COMMIT for events whose metadata asks for it,
 * so a transaction holding a low position commits after later ones. The default
 * of `transaction_id` sometimes pauses after the position was taken and before
 * the xid is, widening the window in which a transaction could take its position
 * before another and its xid after it (which the adapter's append lock must
 * prevent; without the pause the window is microseconds wide). Another
 * connection keeps opening transactions that hold an xid for a while without
 * writing events, as any other writer of the database might. A naive reader
 * (`position > last`, no horizon) runs beside the subscriber to prove that the
 * hazard really occurred in each run.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createPostgresEventStore } from '../../platform/event-store/postgres';
import { DuplicateEventIdError, type EventStore, type NewEvent, type RecordedEvent } from '../../platform/event-store/port';

let database: TestDatabase;
let pool: pg.Pool;
let store: EventStore;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 20 });
  store = await createPostgresEventStore({ pool });
  await pool.query(`
    CREATE FUNCTION commit_late() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_sleep((NEW.metadata->>'commitDelayMs')::numeric / 1000);
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER commit_late AFTER INSERT ON events DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW WHEN (NEW.metadata ? 'commitDelayMs') EXECUTE FUNCTION commit_late();
    CREATE FUNCTION late_xact_id() RETURNS xid8 LANGUAGE plpgsql AS $$
    BEGIN
      IF random() < 0.05 THEN PERFORM pg_sleep(random() * 0.005); END IF;
      RETURN pg_current_xact_id();
    END $$;
    ALTER TABLE events ALTER COLUMN transaction_id SET DEFAULT late_xact_id();`);
});
afterAll(async () => {
  await store?.close();
  await pool?.end();
  await database?.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writers that append `perWriter` events each, with random pauses and late commits; writer 0 appends batches of 25. */
async function writeConcurrently(prefix: string, writers: number, perWriter: number) {
  let writing = true;
  const written = Array.from({ length: writers }, async (_, w) => {
    const streamName = `${prefix}-${w}`;
    const size = w === 0 ? 25 : 1;
    for (let version = 0; version < perWriter; version += size) {
      const events: NewEvent[] = Array.from({ length: size }, (_, n) => ({ type: 'Written', data: { w, n: version + n } }));
      if (Math.random() < 0.1) events[0]!.metadata = { commitDelayMs: 5 + Math.random() * 30 };
      await store.append(streamName, events, { expectedVersion: version === 0 ? 'no_stream' : version - 1 });
      if (Math.random() < 0.2) await sleep(Math.random() * 3);
    }
  });
  const holdsXid = (async () => {
    const client = await pool.connect();
    try {
      while (writing) {
        await client.query('BEGIN');
        await client.query('SELECT pg_current_xact_id()');
        await sleep(20 + Math.random() * 80);
        await client.query('COMMIT');
        await sleep(Math.random() * 50);
      }
    } finally {
      client.release();
    }
  })();
  await Promise.all(written).finally(() => (writing = false));
  await holdsXid;
}

/** Follows the log with `position > last` only, as a reader without the horizon would; returns what it saw. */
function followNaively(after: number) {
  const seen = new Set<number>();
  let running = true;
  const done = (async () => {
    let last = after;
    while (running) {
      const { rows } = await pool.query<{ position: string }>('SELECT position FROM events WHERE position > $1 ORDER BY position', [last]);
      for (const row of rows) seen.add(Number(row.position));
      if (rows.length > 0) last = Number(rows.at(-1)!.position);
      await sleep(1);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return seen;
    },
  };
}

/** A subscriber that runs until stopped, or until it has seen `until` events. */
function subscribe(after: number, until = Infinity) {
  const controller = new AbortController();
  const seen: RecordedEvent[] = [];
  let target = until;
  const done = (async () => {
    for await (const event of store.subscribeToAll({ after, signal: controller.signal })) {
      seen.push(event);
      if (seen.length >= target) controller.abort();
    }
  })();
  return {
    seen,
    done,
    /** Stops once it has seen `count` events, or after `timeoutMs` with whatever it has. */
    async stopAt(count: number, timeoutMs = 10_000) {
      target = count;
      if (seen.length >= target) controller.abort();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      await done;
      clearTimeout(timer);
      return seen;
    },
  };
}

async function committedAfter(position: number) {
  const { rows } = await pool.query<{ id: string; position: string }>('SELECT id, position FROM events WHERE position > $1 ORDER BY position', [position]);
  return rows.map((row) => ({ id: row.id, position: Number(row.position) }));
}

function expectExactlyOnceInOrder(seen: RecordedEvent[], committed: { id: string; position: number }[]) {
  for (let i = 1; i < seen.length; i++) expect(seen[i]!.position).toBeGreaterThan(seen[i - 1]!.position);
  expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
  expect(seen.map((e) => e.id)).toEqual(committed.map((row) => row.id));
}

describe('PostgreSQL event store under concurrency', () => {
  it('leaves no lock behind when an append fails inside its INSERT', async () => {
    const id = randomUUID();
    await store.append('original', [{ id, type: 'Original', data: {} }], { expectedVersion: 'no_stream' });
    for (let i = 0; i < 12; i++) {
      await expect(store.append(`duplicate-${i}`, [{ id, type: 'Copied', data: {} }], { expectedVersion: 'any' })).rejects.toBeInstanceOf(DuplicateEventIdError);
    }
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
    expect(rows[0]!.n).toBe(0);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.append(`after-failure-${i}`, [{ type: 'Fine', data: {} }], { expectedVersion: 'no_stream' })));
  });

  it('listens again when its LISTEN connection is lost, instead of falling back to the slow poll', async () => {
    const subscriber = subscribe(await store.headPosition());
    const lags: number[] = [];
    const appendAndWait = async (i: number) => {
      const started = performance.now();
      await store.append(`relisten-${i}`, [{ type: 'Live', data: {} }], { expectedVersion: 'no_stream' });
      while (subscriber.seen.length <= i) await sleep(1);
      return performance.now() - started;
    };
    await appendAndWait(0);
    const { rowCount } = await pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`);
    expect(rowCount).toBe(1);
    await sleep(100);
    for (let i = 1; i <= 5; i++) {
      lags.push(await appendAndWait(i));
      await sleep(20);
    }
    await subscriber.stopAt(6);
    expect(lags.sort((a, b) => a - b)[2]).toBeLessThan(200);
  });

  it('delivers every event exactly once, in order, while transactions commit out of order', async () => {
    const start = await store.headPosition();
    const subscriber = subscribe(start);
    const naive = followNaively(start);
    await writeConcurrently('out-of-order', 8, 300);

    const committed = await committedAfter(start);
    expect(committed).toHaveLength(8 * 300);
    const seen = await subscriber.stopAt(committed.length);
    const naivelySeen = await naive.stop();

    expectExactlyOnceInOrder(seen, committed);
    const missedByNaiveReader = committed.filter((row) => !naivelySeen.has(row.position)).length;
    expect(missedByNaiveReader, 'the run must have produced out-of-order commits').toBeGreaterThan(0);
  });

  it('resumes from the last position a stopped subscriber saw, exactly once overall', async () => {
    const start = await store.headPosition();
    const first = subscribe(start, 400);
    const writing = writeConcurrently('restart', 8, 150);
    await first.done;
    const checkpoint = first.seen.at(-1)!.position;
    const second = subscribe(checkpoint);
    await writing;

    const committed = await committedAfter(start);
    expect(committed).toHaveLength(8 * 150);
    expect(first.seen).toHaveLength(400);
    await second.stopAt(committed.length - first.seen.length);
    expectExactlyOnceInOrder([...first.seen, ...second.seen], committed);
  });
});
