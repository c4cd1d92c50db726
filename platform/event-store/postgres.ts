/**
 * The PostgreSQL event store: one append-only `events` table with a global
 * position (bigserial), unique (stream, version), and the id of the writing
 * transaction (xid8).
 *
 * Ordering. A reader that follows `position > last` misses events when
 * transactions commit out of order. The reader here only reads rows whose
 * transaction id is below `pg_snapshot_xmin(pg_current_snapshot())`: every
 * transaction below that horizon has ended, so its rows are final. That alone is
 * not enough, because a transaction can take its xid before another one and its
 * position after it; the reader could then pass a position whose transaction is
 * still above the horizon. So an append takes its xid and its positions together
 * under a session-level advisory lock that the append statement itself takes and
 * releases: xid order and position order then agree, and "below the horizon" is
 * always a prefix of the log in position order. Commits stay parallel (holding
 * the lock through commit serialised them and cut single-event appends to 0.4x),
 * and the lock is never held across a round trip to this process. Every writer
 * of the table must go through this adapter for this to hold.
 *
 * Appends to one stream also take a transaction-level lock on that stream, so
 * racing appends fail on the version check instead of waiting on the unique
 * index while holding the global lock.
 *
 * An append is one statement, one round trip: the function `bhc_append` takes
 * the stream lock, checks the expected version, and inserts under the append
 * lock, in the statement's own transaction (four round trips made single-event
 * appends from 8 writers 0.38x a raw INSERT loop).
 *
 * Failures keep the port's rules: an append over MAX_APPEND_BYTES is refused before
 * it is sent; lost connections, a restarting server and too many clients are
 * retried, then EventStoreUnavailableError; a retried append whose ids are already
 * in the stream answers as the first one did (the ids' unique index and the
 * version check catch it, and only then is the log asked where those ids are).
 *
 * Live subscriptions are woken by a NOTIFY sent after commit (coalesced, a hint
 * only: NOTIFY inside the append transaction serialises commits), with a fallback
 * poll, and a quick re-poll while committed events wait above the horizon for an
 * older transaction to end. That transaction may be anyone's, in any database of
 * the cluster (the horizon is cluster-wide), and sends no NOTIFY; a long-running
 * write transaction anywhere therefore delays delivery, never loses events.
 */
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  AppendTooLargeError,
  DuplicateEventIdError,
  MAX_APPEND_BYTES,
  appendBytes,
  retryWhileUnavailable,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  WrongExpectedVersionError,
} from './port';

/** Key of the append lock (bigint key space) and the namespace of stream locks (int pair key space; the two never overlap). */
const APPEND_LOCK = 0x6268_6365; // 'bhce'
const STREAM_LOCKS = 0x6268_6373; // 'bhcs'
const MIGRATION_LOCK = 0x6268_636d; // 'bhcm'
const BATCH = 500;
const FALLBACK_POLL_MS = 500;
const HELD_BACK_FIRST_POLL_MS = 2;

export interface PostgresEventStore extends EventStore {
  /** Creates the schema and table when missing; idempotent and safe when several processes start at once. Already run by create. */
  migrate(): Promise<void>;
}

export type PostgresEventStoreOptions = ({ pool: pg.Pool } | { connectionString: string }) & {
  /** Schema of the `events` table; `public` when absent. */
  schema?: string;
};

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

/**
 * Errors meaning the server could not be reached or is going away, rather than refusing the statement: Node's
 * socket errors, SQLSTATE class 08 (connection exception), 57P01–57P03 (shutting down, starting up), 53300 (too
 * many connections) and the pg client's own "Connection terminated" errors, which carry no code.
 */
export function isPostgresUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '53300', '57P01', '57P02', '57P03'].includes(code) || code.startsWith('08');
  }
  return error instanceof Error && /Connection terminated|timeout exceeded when trying to connect/i.test(error.message);
}

/** A stable 32-bit key per stream, the same in every process; a collision only serialises two streams. */
const streamLockKey = (streamName: string) => createHash('sha1').update(streamName).digest().readInt32BE(0);

export async function createPostgresEventStore(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(schema)) throw new Error(`Invalid event store schema name: ${schema}`);
  const ownsPool = !('pool' in options);
  const pool = 'pool' in options ? options.pool : new pg.Pool({ connectionString: options.connectionString });
  const table = `"${schema}".events`;
  const channel = `bhc_events_${schema}`;
  const sql = {
    version: { name: `bhc_es_version_${schema}`, text: `SELECT max(version) AS version FROM ${table} WHERE stream_name = $1` },
    append: { name: `bhc_es_append_${schema}`, text: `SELECT current_version, last_position FROM "${schema}".bhc_append($1, $2, $3, $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[])` },
    readAfter: {
      name: `bhc_es_read_after_${schema}`,
      text: `SELECT position, stream_name, version, id, type, data, metadata, created_at FROM ${table}
              WHERE position > $1 AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
              ORDER BY position LIMIT $2`,
    },
    committedHead: { name: `bhc_es_committed_head_${schema}`, text: `SELECT max(position) AS position FROM ${table}` },
    byIds: { name: `bhc_es_by_ids_${schema}`, text: `SELECT id, stream_name, version, position FROM ${table} WHERE id = ANY($1::uuid[])` },
  };

  async function migrate() {
    const client = await pool.connect();
    try {
      // IF NOT EXISTS is not atomic: two processes creating the table at once can still collide on the catalog.
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${table} (
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
      // This log's name (EventStore.identity): made once, with the table.
      await client.query(`CREATE TABLE IF NOT EXISTS "${schema}".event_store_identity (id uuid PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now())`);
      await client.query(`INSERT INTO "${schema}".event_store_identity (id) SELECT gen_random_uuid() WHERE NOT EXISTS (SELECT 1 FROM "${schema}".event_store_identity)`);
      // Each statement of a volatile function sees what committed before it began, so the version is read after
      // the stream lock is granted. Nothing before the INSERT writes, so the transaction's xid is assigned inside
      // the append lock, with its positions; the unlock follows the last position.
      await client.query(`
        CREATE OR REPLACE FUNCTION "${schema}".bhc_append(stream text, expected text, stream_key integer, ids uuid[], types text[], datas jsonb[], metadatas jsonb[])
        RETURNS TABLE (current_version integer, last_position bigint) LANGUAGE plpgsql AS $fn$
        DECLARE
          current integer;
          first integer;
          last bigint;
        BEGIN
          PERFORM pg_advisory_xact_lock(${STREAM_LOCKS}, stream_key);
          SELECT max(e.version) INTO current FROM ${table} e WHERE e.stream_name = stream;
          IF NOT (expected = 'any' OR (expected = 'no_stream' AND current IS NULL) OR (expected = 'stream_exists' AND current IS NOT NULL)
                  OR (expected ~ '^[0-9]+$' AND current IS NOT NULL AND current = expected::integer)) THEN
            RETURN QUERY SELECT current, NULL::bigint;
            RETURN;
          END IF;
          first := coalesce(current + 1, 0);
          PERFORM pg_advisory_lock(${APPEND_LOCK});
          WITH inserted AS (
            INSERT INTO ${table} (stream_name, version, id, type, data, metadata)
            SELECT stream, first + e.n::integer - 1, e.id, e.type, e.data, e.metadata
              FROM unnest(ids, types, datas, metadatas) WITH ORDINALITY AS e(id, type, data, metadata, n)
             ORDER BY e.n
            RETURNING position)
          SELECT max(position) INTO last FROM inserted;
          PERFORM pg_advisory_unlock(${APPEND_LOCK});
          RETURN QUERY SELECT first + cardinality(ids) - 1, last;
        END
        $fn$`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  await migrate();

  let notifyScheduled = false;
  function wakeSubscribers() {
    if (notifyScheduled) return;
    notifyScheduled = true;
    setImmediate(() => {
      notifyScheduled = false;
      pool.query(`NOTIFY ${channel}`).catch(() => undefined);
    });
  }

  /**
   * When the append's ids are already in the log: the first append's answer if they are this stream's events at the
   * versions this append asked for (its retry), else DuplicateEventIdError; null when none of them is.
   */
  async function appendedBefore(streamName: string, ids: string[], expectedVersion: ExpectedVersion): Promise<AppendResult | null> {
    const { rows } = await pool.query<{ id: string; stream_name: string; version: number; position: string }>(sql.byIds, [ids]);
    if (rows.length === 0) return null;
    const found = new Map(rows.map((row) => [row.id, row]));
    const first = found.get(ids[0]!);
    const firstVersion = typeof expectedVersion === 'number' ? expectedVersion + 1 : expectedVersion === 'no_stream' ? 0 : first?.version;
    const retried = first !== undefined && ids.every((id, i) => {
      const row = found.get(id);
      return row?.stream_name === streamName && row.version === firstVersion! + i;
    });
    if (!retried) throw new DuplicateEventIdError(streamName, rows.map((row) => row.id));
    const last = found.get(ids.at(-1)!)!;
    return { nextExpectedVersion: last.version, position: Number(last.position) };
  }

  async function append(streamName: string, events: NewEvent[], { expectedVersion }: { expectedVersion: ExpectedVersion }): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const bytes = appendBytes(events);
    if (bytes > MAX_APPEND_BYTES) throw new AppendTooLargeError(streamName, bytes, MAX_APPEND_BYTES);
    const ids = events.map((event) => event.id ?? randomUUID());
    const types = events.map((event) => event.type);
    const data = events.map((event) => JSON.stringify(event.data ?? null));
    const metadata = events.map((event) => JSON.stringify(event.metadata ?? {}));
    try {
      return await retryWhileUnavailable(() => appendOnce(streamName, expectedVersion, [ids, types, data, metadata]), isPostgresUnavailable);
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (error instanceof WrongExpectedVersionError || (code === '23505' && constraint === 'events_id_key')) {
        const before = await appendedBefore(streamName, ids, expectedVersion);
        if (before) return before;
      }
      throw error;
    }
  }

  async function appendOnce(streamName: string, expectedVersion: ExpectedVersion, [ids, types, data, metadata]: string[][]): Promise<AppendResult> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const { rows } = await client.query<{ current_version: number | null; last_position: string | null }>(sql.append, [streamName, String(expectedVersion), streamLockKey(streamName), ids, types, data, metadata]);
      const { current_version: version, last_position: last } = rows[0]!;
      if (last === null) throw new WrongExpectedVersionError(streamName, expectedVersion, version ?? 'no_stream');
      wakeSubscribers();
      return { nextExpectedVersion: version!, position: Number(last) };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) throw error;
      // A failed statement may have taken the session-level append lock without releasing it (the statement's
      // own transaction has ended, so the connection takes the next one at once); a pooled connection must never keep it.
      await client.query('SELECT pg_advisory_unlock_all()').catch((cleanup: unknown) => {
        broken = cleanup as Error;
      });
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === '23505' && constraint === 'events_stream_name_version_key') {
        const { rows } = await pool.query<{ version: number | null }>(sql.version, [streamName]);
        throw new WrongExpectedVersionError(streamName, expectedVersion, rows[0]?.version ?? 'no_stream');
      }
      throw error;
    } finally {
      // Releasing with an error destroys the connection, and with it any lock it may still hold.
      client.release(broken);
    }
  }

  async function* subscribeToAll({ after, signal }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    let pending = true;
    let wake: (() => void) | null = null;
    const nudge = () => {
      pending = true;
      wake?.();
    };
    const rest = (ms: number) =>
      pending || signal?.aborted
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(done, ms);
            function done() {
              clearTimeout(timer);
              wake = null;
              resolve();
            }
            wake = done;
          });

    let listener: pg.Client | null = null;
    const dropListener = (client: pg.Client) => {
      if (listener !== client) return;
      listener = null;
      client.end().catch(() => undefined);
    };
    // Without a listener the subscription still works, only on the fallback poll; so a failed
    // (re)connection is retried on the next round instead of ending the subscription.
    async function listen() {
      if (listener) return;
      const client = new pg.Client(pool.options);
      listener = client;
      client.on('notification', nudge);
      client.on('error', () => dropListener(client));
      client.on('end', () => dropListener(client));
      try {
        await client.connect();
        await client.query(`LISTEN ${channel}`);
        nudge();
      } catch {
        dropListener(client);
      }
    }

    signal?.addEventListener('abort', nudge);
    try {
      let position = after;
      let heldBackPollMs = HELD_BACK_FIRST_POLL_MS;
      while (!signal?.aborted) {
        await listen();
        pending = false;
        const { rows } = await pool.query<Row>(sql.readAfter, [position, BATCH]);
        for (const row of rows) {
          if (signal?.aborted) return;
          yield toRecorded(row);
          position = Number(row.position);
        }
        if (rows.length === BATCH) continue;
        if (rows.length > 0) heldBackPollMs = HELD_BACK_FIRST_POLL_MS;
        const head = await pool.query<{ position: string | null }>(sql.committedHead);
        if (Number(head.rows[0]?.position ?? 0) > position) {
          await rest(heldBackPollMs);
          heldBackPollMs = Math.min(heldBackPollMs * 2, FALLBACK_POLL_MS);
        } else {
          await rest(FALLBACK_POLL_MS);
        }
      }
    } finally {
      signal?.removeEventListener('abort', nudge);
      if (listener) dropListener(listener);
    }
  }

  return {
    migrate,
    append,
    subscribeToAll,

    async readStream(streamName, { afterVersion = -1 } = {}) {
      const { rows } = await retryWhileUnavailable(
        () => pool.query<Row>(`SELECT position, stream_name, version, id, type, data, metadata, created_at FROM ${table} WHERE stream_name = $1 AND version > $2 ORDER BY version`, [streamName, afterVersion]),
        isPostgresUnavailable,
      );
      return rows.map(toRecorded);
    },

    async backlog(after, cap) {
      const { rows } = await pool.query<{ events: number; oldest: Date | null }>(
        `SELECT count(*)::integer AS events, min(created_at) AS oldest FROM (
           SELECT created_at FROM ${table} WHERE position > $1 AND transaction_id < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY position LIMIT $2) waiting`,
        [after, cap],
      );
      return { events: rows[0]!.events, oldestAt: rows[0]!.oldest };
    },

    async identity() {
      const { rows } = await pool.query<{ id: string }>(`SELECT id FROM "${schema}".event_store_identity`);
      return `postgresql:${rows[0]!.id}`;
    },

    async headPosition() {
      const { rows } = await pool.query<{ position: string | null }>(
        `SELECT max(position) AS position FROM ${table} WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())`,
      );
      return Number(rows[0]?.position ?? 0);
    },

    async close() {
      if (ownsPool) await pool.end();
    },
  };
}
