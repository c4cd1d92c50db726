/**
 * The PostgreSQL event store: one append-only `events` table with a global
 * position (bigserial), unique (stream, version), and the id of the writing
 * transaction (xid8).
 *
 * Ordering. A reader that follows `position > last` misses events when
 * transactions commit out of order. The reader here only reads rows whose
 * transaction id is below the horizon of the reading statement's snapshot (`bhc_horizon`: its oldest running
 * transaction, leaving out those known to run in another database): every
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
 * Group commit. Appends that arrive while another append of this store is on
 * its way wait for it, then all go together (at most GROUP_MAX_APPENDS, and
 * GROUP_MAX_BYTES of events) in one statement: `bhc_append_many` takes every
 * stream lock of the group first, in key order (two groups taking them in
 * different orders could deadlock), checks each append's expected version in
 * the order the appends came (an earlier append of the group to the same
 * stream counts as written, so they behave as if sent one after the other),
 * then inserts the events of every accepted append in ONE insert under the
 * append lock, so the group's xid and its positions are still taken together.
 * One transaction, one commit: the WAL flush, the round trip and the
 * function call are paid once per group. Each append keeps its own answer: a
 * stale expected version refuses only that append (a row of its own). An
 * error inside the statement (an id already in the log, a value the server
 * refuses) fails the whole group, and then each of its appends is sent again
 * alone, in order, on the single path, so each gets exactly the single path's
 * outcome. That is a retry's case only (callers make new ids), so no
 * subtransaction per append (a plpgsql exception block: measured 0.48x-0.52x
 * where bhc_append gave 0.56x-0.78x) and no lookup of the ids beforehand is
 * paid on every group. A lost connection retries the group as a whole: sent
 * again, it meets its own events, and each append answers as the first time
 * (version check or ids' index, then the log is asked where the ids are).
 * An append that finds nothing on its way goes alone through `bhc_append`,
 * as before (one writer: 2,395 appends/s against 2,350/s before, medians of
 * 12 alternating rounds in one process), and so does an append of more than
 * GROUPED_UP_TO_EVENTS events, at once: batches gain nothing from a group and
 * lost their parallel statements in one (100-event batches fell from about
 * 55,000 to 35,000 events/s when they were grouped too). After a group
 * returns, the next departs a turn of the event loop later, once its callers
 * have sent their next appends; departing at once alternated a group of one
 * with a group of seven. Groups go one at a time: two at once carried four
 * appends each and measured no better (medians of a 5-round script:
 * 0.68x-0.85x against 0.52x-0.89x, load
 * 5-8 on the 2 cores), and one at a time keeps every queued append in the
 * order it came. CPU per append (one connection, groups of 8): server 75 us,
 * this process 30 us, against 250-310 us and 175-215 us for bhc_append.
 * Measured with `npx tsx tests/bench/run.ts event-store` (8 writers, single
 * events, beside a raw INSERT loop), five runs alternating with the commit
 * before on a shared 2-core machine (load 2.4-3.2): 0.91x-1.23x (0.98, 1.18,
 * 0.93, 1.23, 0.91; 4,180-5,440 appends/s) against 0.56x-0.76x (0.62, 0.76,
 * 0.56, 0.56, 0.70; 2,910-3,640/s). One writer and 100-event batches stay
 * where they were (0.53x-0.71x against 0.41x-0.78x; 33,600-59,400 against
 * 38,500-59,200 events/s).
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
 * older transaction to end. That transaction may be anyone's in this database
 * (a read model's write too) and sends no NOTIFY; a long-running write
 * transaction here therefore delays delivery, never loses events. Transactions
 * of other databases of the cluster are left out of the horizon (with the
 * cluster-wide `pg_snapshot_xmin`, another database's writes held every reader
 * back: the test files, one database each, could not run side by side).
 */
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { checkOut } from '../pooled-connection';
import {
  AppendTooLargeError,
  DuplicateEventIdError,
  EventStoreUnavailableError,
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
/** Events a subscription reads in one statement: a replay's pages (platform/projections/runner.ts) are up to this long. */
const BATCH = 2_000;
/** Group commit: the most appends and bytes of events in one group, and the largest append that joins one (more events go alone at once). */
const GROUP_MAX_APPENDS = 64;
const GROUP_MAX_BYTES = MAX_APPEND_BYTES;
const GROUPED_UP_TO_EVENTS = 10;
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

/** One append on its way: its events as the statements take them (data and metadata as JSON text). */
interface AppendRequest {
  streamName: string;
  expectedVersion: ExpectedVersion;
  bytes: number;
  ids: string[];
  types: string[];
  data: string[];
  metadata: string[];
}

interface Queued extends AppendRequest {
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
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
    return (
      [
        'ECONNREFUSED',
        'ECONNRESET',
        'ETIMEDOUT',
        'EPIPE',
        'EHOSTUNREACH',
        'ENOTFOUND',
        'EAI_AGAIN',
        '53300',
        '57P01',
        '57P02',
        '57P03',
      ].includes(code) || code.startsWith('08')
    );
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
    append: {
      name: `bhc_es_append_${schema}`,
      text: `SELECT current_version, last_position FROM "${schema}".bhc_append($1, $2, $3, $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[])`,
    },
    appendMany: {
      name: `bhc_es_append_many_${schema}`,
      text: `SELECT current_version, last_position FROM "${schema}".bhc_append_many($1::text[], $2::text[], $3::integer[], $4::integer[], $5::integer[], $6::integer[], $7::uuid[], $8::text[], $9::jsonb[], $10::jsonb[])`,
    },
    /**
     * The events after $1 below the horizon, with the committed head beside each (one row of nulls but the head when
     * there are none): a subscription that read them all learns in the same statement whether any are held back.
     */
    readAfter: {
      name: `bhc_es_read_after_${schema}`,
      text: `SELECT e.position, e.stream_name, e.version, e.id, e.type, e.data, e.metadata, e.created_at, head.committed
             FROM (SELECT max(position) AS committed FROM ${table}) head
             LEFT JOIN LATERAL (
               SELECT position, stream_name, version, id, type, data, metadata, created_at FROM ${table}
               WHERE position > $1 AND transaction_id < (SELECT "${schema}".bhc_horizon())
               ORDER BY position LIMIT $2) e ON true
             ORDER BY e.position`,
    },
    byIds: { name: `bhc_es_by_ids_${schema}`, text: `SELECT id, stream_name, version, position FROM ${table} WHERE id = ANY($1::uuid[])` },
  };

  async function migrate() {
    const client = await checkOut(pool);
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
      await client.query(
        `CREATE TABLE IF NOT EXISTS "${schema}".event_store_identity (id uuid PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now())`,
      );
      await client.query(
        `INSERT INTO "${schema}".event_store_identity (id) SELECT gen_random_uuid() WHERE NOT EXISTS (SELECT 1 FROM "${schema}".event_store_identity)`,
      );
      // The horizon of this log: the oldest transaction still running in the snapshot, leaving out those positively
      // known to run in another database (they cannot write this table; the cluster-wide xmin let any of them hold
      // delivery back). A transaction found in the snapshot but no longer running, or whose database is unknown, is
      // kept: it may be an append of this log that committed after the snapshot was taken. Called as a subquery,
      // once per statement, with the statement's snapshot.
      await client.query(`
        CREATE OR REPLACE FUNCTION "${schema}".bhc_horizon() RETURNS xid8 LANGUAGE sql STABLE AS $fn$
          SELECT coalesce(min(running.xid), pg_snapshot_xmax(pg_current_snapshot()))
            FROM pg_snapshot_xip(pg_current_snapshot()) AS running(xid)
           WHERE NOT EXISTS (
             SELECT 1 FROM pg_stat_activity elsewhere
              WHERE elsewhere.backend_xid = running.xid::xid
                AND elsewhere.datid <> (SELECT oid FROM pg_database WHERE datname = current_database()))
        $fn$`);
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
      // A group of appends (see the file header) in one transaction, in the order given, each answered as bhc_append
      // would have: a row per append, last_position NULL when its expected version did not hold. All the group's
      // stream locks are taken first, in key order (two groups taking them in different orders could deadlock); the
      // checks come next, an earlier append of the group to the same stream counting as written; then one INSERT of
      // every accepted event under the append lock, which is held by that INSERT only, as in bhc_append. Nothing
      // catches an error: a failing INSERT (an id already in the log, say) fails the whole statement, and the adapter
      // sends that group's appends again one by one. Created beside bhc_append, so older databases gain it on start.
      await client.query(`
        CREATE OR REPLACE FUNCTION "${schema}".bhc_append_many(streams text[], expecteds text[], stream_keys integer[], counts integer[],
                                                            owners integer[], offsets integer[], ids uuid[], types text[], datas jsonb[], metadatas jsonb[])
        RETURNS TABLE (current_version integer, last_position bigint) LANGUAGE plpgsql AS $fn$
        DECLARE
          appends constant integer := cardinality(streams);
          firsts integer[] := array_fill(NULL::integer, ARRAY[appends]);
          answers integer[] := array_fill(NULL::integer, ARRAY[appends]);
          ends integer[] := array_fill(NULL::integer, ARRAY[appends]);
          reached jsonb := '{}';
          current integer;
          expected text;
          written integer := 0;
          positions bigint[];
          key integer;
        BEGIN
          FOR key IN SELECT DISTINCT k FROM unnest(stream_keys) AS k ORDER BY k LOOP
            PERFORM pg_advisory_xact_lock(${STREAM_LOCKS}, key);
          END LOOP;
          FOR a IN 1 .. appends LOOP
            expected := expecteds[a];
            IF reached ? streams[a] THEN
              current := (reached ->> streams[a])::integer;
            ELSE
              SELECT max(e.version) INTO current FROM ${table} e WHERE e.stream_name = streams[a];
            END IF;
            IF expected = 'any' OR (expected = 'no_stream' AND current IS NULL) OR (expected = 'stream_exists' AND current IS NOT NULL)
               OR (expected ~ '^[0-9]+$' AND current IS NOT NULL AND current = expected::integer) THEN
              firsts[a] := coalesce(current + 1, 0);
              current := firsts[a] + counts[a] - 1;
              written := written + counts[a];
              ends[a] := written;
              reached := reached || jsonb_build_object(streams[a], current);
            END IF;
            answers[a] := current;
          END LOOP;
          IF written > 0 THEN
            PERFORM pg_advisory_lock(${APPEND_LOCK});
            WITH inserted AS (
              INSERT INTO ${table} (stream_name, version, id, type, data, metadata)
              SELECT streams[e.a], firsts[e.a] + e.o, e.id, e.type, e.data, e.metadata
                FROM unnest(owners, offsets, ids, types, datas, metadatas) WITH ORDINALITY AS e(a, o, id, type, data, metadata, n)
               WHERE firsts[e.a] IS NOT NULL
               ORDER BY e.n
              RETURNING position)
            SELECT array_agg(position ORDER BY position) INTO positions FROM inserted;
            PERFORM pg_advisory_unlock(${APPEND_LOCK});
          END IF;
          RETURN QUERY SELECT answers[g.a], positions[ends[g.a]] FROM generate_series(1, appends) AS g(a) ORDER BY g.a;
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

  /** This process's own subscriptions: woken at once by its own appends (the NOTIFY after commit is for the others). */
  const localSubscribers = new Set<() => void>();
  /** Said in this store's NOTIFY, so that its own subscriptions, already woken, do not read again when it arrives. */
  const notifier = randomUUID();
  let notifyScheduled = false;
  function wakeSubscribers() {
    for (const nudge of localSubscribers) nudge();
    if (notifyScheduled) return;
    notifyScheduled = true;
    setImmediate(() => {
      notifyScheduled = false;
      pool.query(`NOTIFY ${channel}, '${notifier}'`).catch(() => undefined);
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
    const retried =
      first !== undefined &&
      ids.every((id, i) => {
        const row = found.get(id);
        return row?.stream_name === streamName && row.version === firstVersion! + i;
      });
    if (!retried)
      throw new DuplicateEventIdError(
        streamName,
        rows.map((row) => row.id),
      );
    const last = found.get(ids.at(-1)!)!;
    return { nextExpectedVersion: last.version, position: Number(last.position) };
  }

  async function append(
    streamName: string,
    events: NewEvent[],
    { expectedVersion }: { expectedVersion: ExpectedVersion },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const bytes = appendBytes(events);
    if (bytes > MAX_APPEND_BYTES) throw new AppendTooLargeError(streamName, bytes, MAX_APPEND_BYTES);
    const ids = events.map((event) => event.id ?? randomUUID());
    const types = events.map((event) => event.type);
    const data = events.map((event) => JSON.stringify(event.data ?? null));
    const metadata = events.map((event) => JSON.stringify(event.metadata ?? {}));
    try {
      return await send({ streamName, expectedVersion, bytes, ids, types, data, metadata });
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (error instanceof WrongExpectedVersionError || (code === '23505' && constraint === 'events_id_key')) {
        const before = await appendedBefore(streamName, ids, expectedVersion);
        if (before) return before;
      }
      throw error;
    }
  }

  /**
   * Group commit (see the file header). While one statement of appends is on its way, the next appends wait here;
   * when it is answered, all those waiting go together in one statement, one transaction, in the order they came
   * (up to GROUP_MAX_APPENDS, or GROUP_MAX_BYTES of events). An append that finds nothing on its way goes alone, as
   * before; so does a large one, at once.
   */
  const waiting: Queued[] = [];
  let sending = false;

  function send(request: AppendRequest): Promise<AppendResult> {
    if (request.ids.length > GROUPED_UP_TO_EVENTS) return appendAlone(request);
    if (!sending && waiting.length === 0) {
      sending = true;
      return appendAlone(request).finally(sentAlone);
    }
    return new Promise<AppendResult>((resolve, reject) => {
      waiting.push({ ...request, resolve, reject });
      if (!sending) sendWaiting();
    });
  }

  function sentAlone() {
    sending = false;
    if (waiting.length > 0) sendWaiting();
  }

  // After a group the way is cleared a turn of the event loop later: the callers just answered append again in
  // their continuations, and those appends then go together in the next group instead of one alone and the rest
  // after it.
  function sent() {
    setImmediate(() => {
      sending = false;
      if (waiting.length > 0) sendWaiting();
    });
  }

  function sendWaiting() {
    let bytes = waiting[0]!.bytes;
    let count = 1;
    while (count < waiting.length && count < GROUP_MAX_APPENDS && bytes + waiting[count]!.bytes <= GROUP_MAX_BYTES)
      bytes += waiting[count++]!.bytes;
    sending = true;
    void appendGroup(waiting.splice(0, count)).finally(count === 1 ? sentAlone : sent);
  }

  const appendAlone = (request: AppendRequest) => retryWhileUnavailable(() => appendOnce(request), isPostgresUnavailable);

  async function appendGroup(group: Queued[]) {
    if (group.length === 1) {
      await appendAlone(group[0]!).then(group[0]!.resolve, group[0]!.reject);
      return;
    }
    let outcomes: (AppendResult | WrongExpectedVersionError)[];
    try {
      // A group sent again after a lost answer meets its own events: the version checks or the ids' index refuse
      // them, and each append is then answered as the first time (see append).
      outcomes = await retryWhileUnavailable(() => appendGroupOnce(group), isPostgresUnavailable);
    } catch (error) {
      if (error instanceof EventStoreUnavailableError) {
        for (const request of group) request.reject(error);
        return;
      }
      // Anything else the server refused (an id already in the log, a value it cannot store) failed the whole
      // statement, and nothing of the group was written. Each append goes again alone and in order, so each gets
      // exactly the outcome and the error the single path gives it.
      for (const request of group) await appendAlone(request).then(request.resolve, request.reject);
      return;
    }
    group.forEach((request, i) => {
      const outcome = outcomes[i]!;
      if (outcome instanceof WrongExpectedVersionError) request.reject(outcome);
      else request.resolve(outcome);
    });
  }

  async function appendGroupOnce(group: AppendRequest[]): Promise<(AppendResult | WrongExpectedVersionError)[]> {
    const owners: number[] = [];
    const offsets: number[] = [];
    group.forEach((request, a) => {
      for (let o = 0; o < request.ids.length; o++) {
        owners.push(a + 1);
        offsets.push(o);
      }
    });
    const client = await checkOut(pool);
    let broken: Error | undefined;
    try {
      const { rows } = await client.query<{ current_version: number | null; last_position: string | null }>(sql.appendMany, [
        group.map((request) => request.streamName),
        group.map((request) => String(request.expectedVersion)),
        group.map((request) => streamLockKey(request.streamName)),
        group.map((request) => request.ids.length),
        owners,
        offsets,
        group.flatMap((request) => request.ids),
        group.flatMap((request) => request.types),
        group.flatMap((request) => request.data),
        group.flatMap((request) => request.metadata),
      ]);
      const outcomes = group.map(({ streamName, expectedVersion }, i) => {
        const { current_version: version, last_position: last } = rows[i]!;
        return last === null
          ? new WrongExpectedVersionError(streamName, expectedVersion, version ?? 'no_stream')
          : { nextExpectedVersion: version!, position: Number(last) };
      });
      if (outcomes.some((outcome) => !(outcome instanceof WrongExpectedVersionError))) wakeSubscribers();
      return outcomes;
    } catch (error) {
      // As in appendOnce: a pooled connection must never keep the append lock.
      await client.query('SELECT pg_advisory_unlock_all()').catch((cleanup: unknown) => {
        broken = cleanup as Error;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async function appendOnce({ streamName, expectedVersion, ids, types, data, metadata }: AppendRequest): Promise<AppendResult> {
    const client = await checkOut(pool);
    let broken: Error | undefined;
    try {
      const { rows } = await client.query<{ current_version: number | null; last_position: string | null }>(sql.append, [
        streamName,
        String(expectedVersion),
        streamLockKey(streamName),
        ids,
        types,
        data,
        metadata,
      ]);
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

  type ReadRows = (Row & { committed: string | null })[];
  /** Reads asked for in this turn of the event loop, not sent yet, by position. */
  const asked = new Map<number, Promise<ReadRows>>();
  /**
   * The events after `position`, read with every other subscription of this store that asks for the same position in
   * the same turn of the event loop: those woken by one append (the read models' runner and the mail runner's) read
   * the log once. Only a read not sent yet is shared, so each one still starts after its subscription asked.
   */
  function readAfter(position: number): Promise<ReadRows> {
    let read = asked.get(position);
    if (!read) {
      read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        asked.delete(position);
        return readNow(position);
      });
      asked.set(position, read);
    }
    return read;
  }

  const readNow = (position: number): Promise<ReadRows> =>
    pool.query<Row & { committed: string | null }>(sql.readAfter, [position, BATCH]).then(({ rows }) => rows);

  async function* subscribeToAll({ after, signal, onCaughtUp }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
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
      client.on('notification', ({ payload }) => {
        if (payload !== notifier) nudge();
      });
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
    localSubscribers.add(nudge);
    try {
      let position = after;
      let heldBackPollMs = HELD_BACK_FIRST_POLL_MS;
      /** The next batch, asked for before this one is handed on when this one was whole (the log has more). */
      let next: Promise<ReadRows> | null = null;
      while (!signal?.aborted) {
        await listen();
        if (!next) {
          pending = false;
          next = readAfter(position);
        }
        const rows = await next;
        next = null;
        const read = rows[0]!.position === null ? 0 : rows.length;
        if (read === BATCH) {
          // PostgreSQL reads the next batch while this one is handed on. Asked for at once: sharing it with another
          // subscription (readAfter) would wait for the event loop's next turn, after this batch.
          pending = false;
          next = readNow(Number(rows[read - 1]!.position));
          // Read in a loop that may stop before it: a failure counts only where it is awaited.
          next.catch(() => undefined);
        }
        for (const row of rows.slice(0, read)) {
          if (signal?.aborted) return;
          yield toRecorded(row);
          position = Number(row.position);
        }
        if (read === BATCH) continue;
        if (read > 0) heldBackPollMs = HELD_BACK_FIRST_POLL_MS;
        // Woken while reading or while the rows were handed on: something was appended since, so read again at once.
        if (pending) continue;
        onCaughtUp?.();
        if (Number(rows[0]!.committed ?? 0) > position) {
          await rest(heldBackPollMs);
          heldBackPollMs = Math.min(heldBackPollMs * 2, FALLBACK_POLL_MS);
        } else {
          await rest(FALLBACK_POLL_MS);
        }
      }
    } finally {
      localSubscribers.delete(nudge);
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
        () =>
          pool.query<Row>(
            `SELECT position, stream_name, version, id, type, data, metadata, created_at FROM ${table} WHERE stream_name = $1 AND version > $2 ORDER BY version`,
            [streamName, afterVersion],
          ),
        isPostgresUnavailable,
      );
      return rows.map(toRecorded);
    },

    async readEvents(places) {
      if (places.length === 0) return [];
      const { rows } = await retryWhileUnavailable(
        () =>
          pool.query<Row | { position: null }>(
            `SELECT e.position, e.stream_name, e.version, e.id, e.type, e.data, e.metadata, e.created_at
               FROM unnest($1::text[], $2::integer[]) WITH ORDINALITY AS wanted(stream_name, version, n)
               LEFT JOIN ${table} e ON e.stream_name = wanted.stream_name AND e.version = wanted.version
              ORDER BY wanted.n`,
            [places.map((place) => place.streamName), places.map((place) => place.version)],
          ),
        isPostgresUnavailable,
      );
      return rows.map((row) => (row.position === null ? null : toRecorded(row)));
    },

    async backlog(after, cap) {
      const { rows } = await pool.query<{ events: number; oldest: Date | null }>(
        `SELECT count(*)::integer AS events, min(created_at) AS oldest FROM (
           SELECT created_at FROM ${table} WHERE position > $1 AND transaction_id < (SELECT "${schema}".bhc_horizon()) ORDER BY position LIMIT $2) waiting`,
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
        `SELECT max(position) AS position FROM ${table} WHERE transaction_id < (SELECT "${schema}".bhc_horizon())`,
      );
      return Number(rows[0]?.position ?? 0);
    },

    async close() {
      if (ownsPool) await pool.end();
    },
  };
}
