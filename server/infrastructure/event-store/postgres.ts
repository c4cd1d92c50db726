/**
 * The PostgreSQL event store: one append-only `events` table with a global
 * position and unique (stream, version).
 *
 * Ordering: a reader that follows `position > last` misses events when
 * transactions commit out of order. Bounding the reader by the
 * `pg_snapshot_xmin` horizon narrows that window but does not close it when
 * positions are plain numbers: a transaction can take its transaction id before
 * another one's and its position after it, and commit first. So positions are
 * handed out in commit order instead: an append takes a transaction-level
 * advisory lock just before it inserts, and holds it until its commit is
 * visible. Appends still prepare (read the stream version, serialise the data)
 * in parallel; only insert-and-commit is serial. The reader additionally stays
 * below the xmin horizon, which costs nothing and guards against writers that
 * bypass this adapter.
 *
 * Live subscriptions are woken by a NOTIFY sent after commit (a hint only,
 * coalesced; never inside the append transaction, where it would serialise
 * commits a second time), with a polling fallback.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  WrongExpectedVersionError,
} from './port';

const APPEND_LOCK = 0x6268_6365; // 'bhce'
const CHANNEL = 'bhc_events';
const BATCH = 500;
const FALLBACK_POLL_MS = 500;

interface Row {
  position: string;
  stream_name: string;
  version: number;
  id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  created_at: Date;
}

const toRecorded = (row: Row): RecordedEvent => ({
  id: row.id,
  streamName: row.stream_name,
  version: row.version,
  position: Number(row.position),
  type: row.type,
  data: row.data,
  metadata: row.metadata,
  createdAt: row.created_at,
});

export async function migrateEventStore(pool: pg.Pool): Promise<void> {
  await pool.query(`
    CREATE TABLE IF NOT EXISTS events (
      position bigserial PRIMARY KEY,
      transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
      stream_name text NOT NULL,
      version integer NOT NULL,
      id uuid NOT NULL UNIQUE,
      type text NOT NULL,
      data jsonb NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (stream_name, version)
    )`);
}

function check(streamName: string, expected: ExpectedVersion, current: number | null) {
  const actual = current ?? 'no_stream';
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === null) ||
    (expected === 'stream_exists' && current !== null) ||
    (typeof expected === 'number' && current === expected);
  if (!ok) throw new WrongExpectedVersionError(streamName, expected, actual);
}

export async function createPostgresEventStore(options: { pool: pg.Pool } | { connectionString: string }): Promise<EventStore> {
  const ownsPool = !('pool' in options);
  const pool = 'pool' in options ? options.pool : new pg.Pool({ connectionString: options.connectionString });
  await migrateEventStore(pool);

  let notifyScheduled = false;
  function wakeSubscribers() {
    if (notifyScheduled) return;
    notifyScheduled = true;
    setImmediate(() => {
      notifyScheduled = false;
      pool.query(`NOTIFY ${CHANNEL}`).catch(() => undefined);
    });
  }

  async function appendOnce(streamName: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM events WHERE stream_name = $1', [streamName]);
      const current = rows[0]?.version ?? null;
      check(streamName, expectedVersion, current);
      const first = current === null ? 0 : current + 1;
      const values: unknown[] = [];
      const tuples = events.map((event, index) => {
        values.push(streamName, first + index, event.id ?? randomUUID(), event.type, JSON.stringify(event.data ?? null), JSON.stringify(event.metadata ?? {}));
        const base = index * 6;
        return `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5}::jsonb, $${base + 6}::jsonb)`;
      });
      await client.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK]);
      const inserted = await client.query<{ position: string }>(
        `INSERT INTO events (stream_name, version, id, type, data, metadata) VALUES ${tuples.join(', ')} RETURNING position`,
        values,
      );
      await client.query('COMMIT');
      return { nextExpectedVersion: first + events.length - 1, position: Number(inserted.rows.at(-1)!.position) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if ((error as { code?: string }).code === '23505' && (error as { constraint?: string }).constraint === 'events_stream_name_version_key') {
        const { rows } = await pool.query<{ version: number | null }>('SELECT max(version) AS version FROM events WHERE stream_name = $1', [streamName]);
        throw new WrongExpectedVersionError(streamName, expectedVersion, rows[0]?.version ?? 'no_stream');
      }
      throw error;
    } finally {
      client.release();
    }
  }

  async function readAfter(after: number, limit: number): Promise<RecordedEvent[]> {
    const { rows } = await pool.query<Row>(
      `SELECT position, stream_name, version, id, type, data, metadata, created_at FROM events
        WHERE position > $1 AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY position LIMIT $2`,
      [after, limit],
    );
    return rows.map(toRecorded);
  }

  return {
    async append(streamName, events, { expectedVersion }) {
      if (events.length === 0) throw new Error('append needs at least one event');
      for (let attempt = 0; ; attempt++) {
        try {
          const result = await appendOnce(streamName, events, expectedVersion);
          wakeSubscribers();
          return result;
        } catch (error) {
          // 'any' has no expectation to violate: two concurrent appends only raced for the next version.
          if (expectedVersion === 'any' && error instanceof WrongExpectedVersionError && attempt < 10) continue;
          throw error;
        }
      }
    },

    async readStream(streamName) {
      const { rows } = await pool.query<Row>(
        'SELECT position, stream_name, version, id, type, data, metadata, created_at FROM events WHERE stream_name = $1 ORDER BY version',
        [streamName],
      );
      return rows.map(toRecorded);
    },

    async *subscribeToAll({ after, signal }: SubscribeOptions) {
      const listener = new pg.Client({ connectionString: (pool.options as { connectionString?: string }).connectionString });
      let wake: (() => void) | null = null;
      const sleep = (ms: number) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(done, ms);
          function done() {
            clearTimeout(timer);
            wake = null;
            signal?.removeEventListener('abort', done);
            resolve();
          }
          wake = done;
          signal?.addEventListener('abort', done, { once: true });
        });
      await listener.connect();
      listener.on('notification', () => wake?.());
      listener.on('error', () => wake?.());
      await listener.query(`LISTEN ${CHANNEL}`);
      try {
        let position = after;
        while (!signal?.aborted) {
          const batch = await readAfter(position, BATCH);
          for (const event of batch) {
            if (signal?.aborted) return;
            yield event;
            position = event.position;
          }
          if (batch.length < BATCH) await sleep(FALLBACK_POLL_MS);
        }
      } finally {
        await listener.end().catch(() => undefined);
      }
    },

    async headPosition() {
      const { rows } = await pool.query<{ position: string | null }>(
        'SELECT max(position) AS position FROM events WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())',
      );
      return Number(rows[0]?.position ?? 0);
    },

    async close() {
      if (ownsPool) await pool.end();
    },
  };
}
