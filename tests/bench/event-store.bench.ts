/**
 * Event store throughput beside raw PostgreSQL in the same run: appends (one
 * event each and batches of 100) against a plain INSERT loop, and subscription
 * catch-up against a plain SELECT scan of the same rows.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../support/database';
import { createPostgresEventStore } from '../../server/infrastructure/event-store/postgres';
import { printTable, rate } from './report';

const SINGLE = 3000;
const BATCHES = 100;
const BATCH_SIZE = 100;
const WRITERS = 8;

async function inParallel(total: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < total) await work(next++);
    }),
  );
}

export async function run() {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: WRITERS + 2 });
  try {
    const store = await createPostgresEventStore({ pool });
    await pool.query('CREATE TABLE raw_events (position bigserial PRIMARY KEY, stream_name text, version int, id uuid, type text, data jsonb)');
    const data = { title: 'WGN signs on', year: 1948, tags: ['radio', 'chicago'] };

    const rawInsert = await rate(SINGLE, () =>
      inParallel(SINGLE, (i) => pool.query('INSERT INTO raw_events (stream_name, version, id, type, data) VALUES ($1, 0, $2, $3, $4)', [`raw-${i}`, randomUUID(), 'Noted', data]).then(() => undefined)),
    );
    const single = await rate(SINGLE, () =>
      inParallel(SINGLE, (i) => store.append(`single-${i}`, [{ type: 'Noted', data }], { expectedVersion: 'no_stream' }).then(() => undefined)),
    );
    const batched = await rate(BATCHES * BATCH_SIZE, () =>
      inParallel(BATCHES, (i) =>
        store.append(`batch-${i}`, Array.from({ length: BATCH_SIZE }, () => ({ type: 'Noted', data })), { expectedVersion: 'no_stream' }).then(() => undefined),
      ),
    );

    const total = await store.headPosition();
    const rawScan = await rate(total, async () => {
      let after = 0;
      for (;;) {
        const { rows } = await pool.query<{ position: string }>('SELECT position, stream_name, version, id, type, data, metadata, created_at FROM events WHERE position > $1 ORDER BY position LIMIT 500', [after]);
        if (rows.length === 0) break;
        after = Number(rows.at(-1)!.position);
      }
    });
    const catchUp = await rate(total, async () => {
      const controller = new AbortController();
      for await (const event of store.subscribeToAll({ after: 0, signal: controller.signal })) if (event.position >= total) controller.abort();
    });

    printTable([
      { figure: 'append, 1 event each (8 writers)', value: single, unit: 'events/s', baseline: 'raw INSERT loop', baselineValue: rawInsert },
      { figure: 'append, batches of 100 (8 writers)', value: batched, unit: 'events/s', baseline: 'raw INSERT loop', baselineValue: rawInsert },
      { figure: `subscription catch-up (${total} events)`, value: catchUp, unit: 'events/s', baseline: 'raw SELECT scan', baselineValue: rawScan },
    ]);
    await store.close();
  } finally {
    await pool.end();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
