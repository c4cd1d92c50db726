/**
 * Event store throughput and latency beside raw PostgreSQL in the same run:
 * appends (one event each from 8 writers and from 1, and batches of 100) against a plain INSERT loop into
 * a plain table, subscription catch-up against a plain SELECT scan of the same
 * rows, and live delivery lag against a bare INSERT + NOTIFY seen by a LISTEN
 * connection. Each figure and its baseline are measured in alternating rounds
 * and reported as medians, since a single short sample on two cores swings by
 * a factor of two.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../support/database';
import { createPostgresEventStore } from '../../platform/event-store/postgres';
import type { EventStore } from '../../platform/event-store/port';
import { printTable, rate } from './report';

const ROUNDS = 3;
const SINGLE = 1500;
const LONE = 500;
const BATCHES = 30;
const BATCH_SIZE = 100;
const WRITERS = 8;
const LIVE_SAMPLES = 200;
const data = { title: 'WGN signs on', year: 1948, tags: ['radio', 'chicago'] };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function inParallel(total: number, work: (i: number) => Promise<unknown>, writers = WRITERS) {
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < total) await work(next++);
    }),
  );
}

/** Milliseconds from the start of each append until a running subscription yields it. */
async function liveLag(store: EventStore) {
  const controller = new AbortController();
  const sent = new Map<string, number>();
  const lags: number[] = [];
  let received: () => void = () => undefined;
  const subscription = (async () => {
    for await (const event of store.subscribeToAll({ after: await store.headPosition(), signal: controller.signal })) {
      const at = sent.get(event.id);
      if (at === undefined) continue;
      lags.push(performance.now() - at);
      received();
    }
  })();
  await sleep(100);
  for (let i = 0; i < LIVE_SAMPLES; i++) {
    const id = randomUUID();
    const arrived = new Promise<void>((resolve) => (received = resolve));
    sent.set(id, performance.now());
    await store.append(`live-${id}`, [{ id, type: 'Noted', data }], { expectedVersion: 'no_stream' });
    await arrived;
    await sleep(2);
  }
  controller.abort();
  await subscription;
  return lags;
}

/** The same path without an event store: INSERT, then NOTIFY after commit, until a LISTEN connection hears it. */
async function rawNotifyLag(pool: pg.Pool, connectionString: string) {
  const listener = new pg.Client({ connectionString });
  await listener.connect();
  await listener.query('LISTEN bench_raw');
  let heard: () => void = () => undefined;
  listener.on('notification', () => heard());
  const lags: number[] = [];
  for (let i = 0; i < LIVE_SAMPLES; i++) {
    const arrived = new Promise<void>((resolve) => (heard = resolve));
    const started = performance.now();
    await pool.query('INSERT INTO raw_events (stream_name, version, id, type, data) VALUES ($1, 0, $2, $3, $4)', [
      `raw-live-${i}`,
      randomUUID(),
      'Noted',
      data,
    ]);
    await pool.query('NOTIFY bench_raw');
    await arrived;
    lags.push(performance.now() - started);
    await sleep(2);
  }
  await listener.end();
  return lags;
}

export async function run() {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: WRITERS + 2 });
  try {
    const store = await createPostgresEventStore({ pool });
    await pool.query(
      'CREATE TABLE raw_events (position bigserial PRIMARY KEY, stream_name text, version int, id uuid, type text, data jsonb)',
    );
    const figures = {
      rawInsert: [] as number[],
      single: [] as number[],
      batched: [] as number[],
      rawScan: [] as number[],
      catchUp: [] as number[],
      rawLone: [] as number[],
      lone: [] as number[],
    };

    for (let round = 0; round < ROUNDS; round++) {
      figures.rawInsert.push(
        await rate(SINGLE, () =>
          inParallel(SINGLE, (i) =>
            pool.query('INSERT INTO raw_events (stream_name, version, id, type, data) VALUES ($1, 0, $2, $3, $4)', [
              `raw-${round}-${i}`,
              randomUUID(),
              'Noted',
              data,
            ]),
          ),
        ),
      );
      figures.single.push(
        await rate(SINGLE, () =>
          inParallel(SINGLE, (i) => store.append(`single-${round}-${i}`, [{ type: 'Noted', data }], { expectedVersion: 'no_stream' })),
        ),
      );
      // One writer: each append finds none other on its way (group commit leaves it on the single path).
      figures.rawLone.push(
        await rate(LONE, () =>
          inParallel(
            LONE,
            (i) =>
              pool.query('INSERT INTO raw_events (stream_name, version, id, type, data) VALUES ($1, 0, $2, $3, $4)', [
                `raw-lone-${round}-${i}`,
                randomUUID(),
                'Noted',
                data,
              ]),
            1,
          ),
        ),
      );
      figures.lone.push(
        await rate(LONE, () =>
          inParallel(LONE, (i) => store.append(`lone-${round}-${i}`, [{ type: 'Noted', data }], { expectedVersion: 'no_stream' }), 1),
        ),
      );
      figures.batched.push(
        await rate(BATCHES * BATCH_SIZE, () =>
          inParallel(BATCHES, (i) =>
            store.append(
              `batch-${round}-${i}`,
              Array.from({ length: BATCH_SIZE }, () => ({ type: 'Noted', data })),
              { expectedVersion: 'no_stream' },
            ),
          ),
        ),
      );
    }

    const total = await store.headPosition();
    for (let round = 0; round < ROUNDS; round++) {
      figures.rawScan.push(
        await rate(total, async () => {
          let after = 0;
          for (;;) {
            const { rows } = await pool.query<{ position: string }>(
              'SELECT position, stream_name, version, id, type, data, metadata, created_at FROM events WHERE position > $1 ORDER BY position LIMIT 500',
              [after],
            );
            if (rows.length === 0) break;
            after = Number(rows.at(-1)!.position);
          }
        }),
      );
      figures.catchUp.push(
        await rate(total, async () => {
          const controller = new AbortController();
          for await (const event of store.subscribeToAll({ after: 0, signal: controller.signal }))
            if (event.position >= total) controller.abort();
        }),
      );
    }

    const rawLag = await rawNotifyLag(pool, database.url);
    const lag = await liveLag(store);

    printTable([
      {
        figure: `append, 1 event each (${WRITERS} writers)`,
        value: median(figures.single),
        unit: 'events/s',
        baseline: 'raw INSERT loop',
        baselineValue: median(figures.rawInsert),
      },
      {
        figure: 'append, 1 event each (1 writer)',
        value: median(figures.lone),
        unit: 'events/s',
        baseline: 'raw INSERT loop, 1 writer',
        baselineValue: median(figures.rawLone),
      },
      {
        figure: `append, batches of ${BATCH_SIZE} (${WRITERS} writers)`,
        value: median(figures.batched),
        unit: 'events/s',
        baseline: 'raw INSERT loop',
        baselineValue: median(figures.rawInsert),
      },
      {
        figure: `subscription catch-up (${total} events)`,
        value: median(figures.catchUp),
        unit: 'events/s',
        baseline: 'raw SELECT scan',
        baselineValue: median(figures.rawScan),
      },
      {
        figure: 'live delivery lag, p50 (closed loop: one append at a time)',
        value: percentile(lag, 0.5),
        unit: 'ms',
        baseline: 'raw INSERT+NOTIFY',
        baselineValue: percentile(rawLag, 0.5),
      },
      {
        figure: 'live delivery lag, p99 (closed loop: one append at a time)',
        value: percentile(lag, 0.99),
        unit: 'ms',
        baseline: 'raw INSERT+NOTIFY',
        baselineValue: percentile(rawLag, 0.99),
      },
    ]);
    await store.close();
  } finally {
    await pool.end();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
