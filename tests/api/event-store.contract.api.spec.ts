/**
 * One contract for every event store adapter: PostgreSQL always, KurrentDB when
 * KURRENTDB_URL is set (reported as skipped otherwise).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database';
import pg from 'pg';
import { eventStoreAdapters } from '../support/adapters';
import { createPostgresEventStore, isPostgresUnavailable } from '../../platform/event-store/postgres';
import {
  AppendTooLargeError,
  DuplicateEventIdError,
  EventStoreUnavailableError,
  MAX_APPEND_BYTES,
  type EventStore,
  type RecordedEvent,
  WrongExpectedVersionError,
  retryWhileUnavailable,
} from '../../platform/event-store/port';

const adapters = eventStoreAdapters;

/** Streams unique to one run, so the suite also works against a shared KurrentDB. */
const stream = (type: string) => `${type}-${randomUUID()}`;

/** Collects the events `mine` accepts until `count` of them arrived, then aborts the subscription. */
async function collect(
  iterable: AsyncIterable<RecordedEvent>,
  controller: AbortController,
  mine: (e: RecordedEvent) => boolean,
  count: number,
  onEach?: (seen: RecordedEvent[]) => void,
) {
  const seen: RecordedEvent[] = [];
  for await (const event of iterable) {
    if (!mine(event)) continue;
    seen.push(event);
    onEach?.(seen);
    if (seen.length >= count) controller.abort();
  }
  return seen;
}

function isWrongExpectedVersion(streamName: string, expected: unknown, actual?: unknown) {
  return (error: unknown) => {
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(error).toMatchObject({ streamName, expected, ...(actual === undefined ? {} : { actual }) });
    return true;
  };
}

for (const adapter of adapters) {
  describe.skipIf(adapter.skip)(`event store contract: ${adapter.name}`, () => {
    let store: EventStore;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ store, close } = await adapter.open());
    });
    afterAll(async () => {
      await close?.();
    });

    it('appends and reads a stream in version order, from version 0', async () => {
      const name = stream('order');
      const first = await store.append(name, [{ type: 'Placed', data: { total: 12.5 } }], { expectedVersion: 'no_stream' });
      expect(first.nextExpectedVersion).toBe(0);
      const second = await store.append(
        name,
        [
          { type: 'Paid', data: { by: 'card' } },
          { type: 'Shipped', data: {} },
        ],
        { expectedVersion: 0 },
      );
      expect(second.nextExpectedVersion).toBe(2);
      expect(second.position).toBeGreaterThan(first.position);
      const events = await store.readStream(name);
      expect(events.map((e) => [e.version, e.type, e.data])).toEqual([
        [0, 'Placed', { total: 12.5 }],
        [1, 'Paid', { by: 'card' }],
        [2, 'Shipped', {}],
      ]);
      expect(events.every((e) => e.streamName === name && e.createdAt instanceof Date && Number.isSafeInteger(e.position))).toBe(true);
      expect(events[0]!.position).toBe(first.position);
      expect(events[2]!.position).toBe(second.position);
    });

    it('gives the events of one append consecutive versions and increasing positions', async () => {
      const name = stream('batch');
      const result = await store.append(
        name,
        Array.from({ length: 25 }, (_, n) => ({ type: 'Counted', data: { n } })),
        { expectedVersion: 'no_stream' },
      );
      expect(result.nextExpectedVersion).toBe(24);
      const events = await store.readStream(name);
      expect(events.map((e) => e.version)).toEqual(Array.from({ length: 25 }, (_, n) => n));
      expect(events.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 25 }, (_, n) => n));
      for (let i = 1; i < events.length; i++) expect(events[i]!.position).toBeGreaterThan(events[i - 1]!.position);
      expect(events.at(-1)!.position).toBe(result.position);
    });

    it('returns an empty list for a stream that does not exist', async () => {
      expect(await store.readStream(stream('missing'))).toEqual([]);
    });

    it('keeps the ids, data and metadata it was given', async () => {
      const name = stream('meta');
      const id = randomUUID();
      const data = { text: 'é ☕ "quoted" \\ back\\slash {braces} , comma', nested: { list: [1, null, true], empty: '' } };
      const metadata = { actorId: 'member-1', commandId: 'c-1', extra: { n: 3 } };
      await store.append(
        name,
        [
          { id, type: 'Noted', data, metadata },
          { type: 'Bare', data: 'just a string' },
        ],
        { expectedVersion: 'any' },
      );
      const [first, second] = await store.readStream(name);
      expect(first).toMatchObject({ id, type: 'Noted', data, metadata });
      expect(second).toMatchObject({ type: 'Bare', data: 'just a string', metadata: {} });
      expect(second!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    });

    it('checks every kind of expected version, failing with a typed error', async () => {
      const name = stream('checked');
      const one = [{ type: 'E', data: {} }];
      await expect(store.append(name, one, { expectedVersion: 'stream_exists' })).rejects.toSatisfy(
        isWrongExpectedVersion(name, 'stream_exists'),
      );
      await expect(store.append(name, one, { expectedVersion: 0 })).rejects.toSatisfy(isWrongExpectedVersion(name, 0));
      expect((await store.append(name, one, { expectedVersion: 'no_stream' })).nextExpectedVersion).toBe(0);
      await expect(store.append(name, one, { expectedVersion: 'no_stream' })).rejects.toSatisfy(
        isWrongExpectedVersion(name, 'no_stream', 0),
      );
      expect((await store.append(name, one, { expectedVersion: 'stream_exists' })).nextExpectedVersion).toBe(1);
      await expect(store.append(name, one, { expectedVersion: 0 })).rejects.toSatisfy(isWrongExpectedVersion(name, 0, 1));
      await expect(store.append(name, one, { expectedVersion: 2 })).rejects.toSatisfy(isWrongExpectedVersion(name, 2, 1));
      expect((await store.append(name, one, { expectedVersion: 1 })).nextExpectedVersion).toBe(2);
      expect((await store.append(name, one, { expectedVersion: 'any' })).nextExpectedVersion).toBe(3);
      expect((await store.append(stream('fresh'), one, { expectedVersion: 'any' })).nextExpectedVersion).toBe(0);
      expect((await store.readStream(name)).map((e) => e.version)).toEqual([0, 1, 2, 3]);
      // The rest of a stream after a version already read (what the command handler reads after its cached state).
      expect((await store.readStream(name, { afterVersion: 1 })).map((e) => e.version)).toEqual([2, 3]);
      expect(await store.readStream(name, { afterVersion: 3 })).toEqual([]);
      expect(await store.readStream(stream('missing'), { afterVersion: 3 })).toEqual([]);
    });

    it('delivers every event after a middle position in order, then live ones appended after it caught up', async () => {
      const name = stream('sub');
      const before = await store.append(name, [{ type: 'E0', data: {} }], { expectedVersion: 'no_stream' });
      await store.append(
        name,
        [
          { type: 'E1', data: {} },
          { type: 'E2', data: {} },
        ],
        { expectedVersion: 0 },
      );
      const controller = new AbortController();
      let caughtUp: () => void;
      const catchUpDone = new Promise<void>((resolve) => (caughtUp = resolve));
      const seen = collect(
        store.subscribeToAll({ after: before.position, signal: controller.signal }),
        controller,
        (e) => e.streamName === name,
        4,
        (events) => {
          if (events.length === 2) caughtUp();
        },
      );
      await catchUpDone;
      await store.append(name, [{ type: 'E3', data: {} }], { expectedVersion: 2 });
      const last = await store.append(name, [{ type: 'E4', data: {} }], { expectedVersion: 3 });
      const events = await seen;
      expect(events.map((e) => [e.type, e.version])).toEqual([
        ['E1', 1],
        ['E2', 2],
        ['E3', 3],
        ['E4', 4],
      ]);
      for (let i = 1; i < events.length; i++) expect(events[i]!.position).toBeGreaterThan(events[i - 1]!.position);
      expect(events.at(-1)!.position).toBe(last.position);
    });

    it('reads events back by their stream and version, in the order asked, null where the log holds none', async () => {
      const first = stream('placed');
      const second = stream('placed');
      await store.append(
        first,
        [0, 1, 2].map((n) => ({ type: 'Counted', data: { n } })),
        { expectedVersion: 'no_stream' },
      );
      await store.append(second, [{ type: 'Counted', data: { n: 10 } }], { expectedVersion: 'no_stream' });
      const [a0, , a2] = await store.readStream(first);
      const [b0] = await store.readStream(second);
      const read = await store.readEvents([
        { streamName: second, version: 0 },
        { streamName: first, version: 2 },
        { streamName: first, version: 7 },
        { streamName: stream('missing'), version: 0 },
        { streamName: first, version: 0 },
      ]);
      // The same records readStream returns, positions and times included.
      expect(read).toEqual([b0, a2, null, null, a0]);
      expect(await store.readEvents([])).toEqual([]);
    });

    it('delivers from the start of the log with the same records readStream returns', async () => {
      const name = stream('from-start');
      await store.append(name, [{ type: 'Only', data: { n: 1 }, metadata: { actorId: 'a' } }], { expectedVersion: 'no_stream' });
      const controller = new AbortController();
      const events = await collect(
        store.subscribeToAll({ after: 0, signal: controller.signal }),
        controller,
        (e) => e.streamName === name,
        1,
      );
      expect(events).toEqual(await store.readStream(name));
    });

    it('ends the iteration when aborted while waiting for live events', async () => {
      const controller = new AbortController();
      const from = await store.headPosition();
      const iteration = (async () => {
        for await (const event of store.subscribeToAll({ after: from, signal: controller.signal }))
          expect(event.position).toBeGreaterThan(from);
      })();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const abortedAt = performance.now();
      controller.abort();
      await iteration;
      expect(performance.now() - abortedAt).toBeLessThan(1000);
    });

    it('reports the head position of the log', async () => {
      const result = await store.append(stream('head'), [{ type: 'Last', data: {} }], { expectedVersion: 'no_stream' });
      // Polled: on PostgreSQL the head is what subscribers may read, below the horizon of running transactions, and a
      // short transaction of another database that ends between the snapshot and the look at pg_stat_activity holds it
      // back for that one read (other test files run beside this one).
      await expect.poll(() => store.headPosition()).toBeGreaterThanOrEqual(result.position);
    });

    it.each([0, 'no_stream'] as const)('lets exactly one of 20 appends expecting version %s win', async (expectedVersion) => {
      const name = stream('race');
      if (expectedVersion === 0) await store.append(name, [{ type: 'Opened', data: {} }], { expectedVersion: 'no_stream' });
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => store.append(name, [{ type: 'Claimed', data: { by: i } }], { expectedVersion })),
      );
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(lost).toHaveLength(19);
      for (const { reason } of lost) expect(reason).toSatisfy(isWrongExpectedVersion(name, expectedVersion, expectedVersion === 0 ? 1 : 0));
      expect(await store.readStream(name)).toHaveLength(expectedVersion === 0 ? 2 : 1);
    });

    it('resumes after the last event a stopped subscriber saw, inside a batch, exactly once overall', async () => {
      const prefix = stream('resume');
      const mine = (e: RecordedEvent) => e.streamName.startsWith(prefix);
      const from = await store.headPosition();
      // Five writers at once: four of single events, one of batches of 25.
      await Promise.all(
        Array.from({ length: 5 }, async (_, w) => {
          const size = w === 0 ? 25 : 1;
          for (let version = 0; version < 100; version += size) {
            const events = Array.from({ length: size }, (_, n) => ({ type: 'Written', data: { w, n: version + n } }));
            await store.append(`${prefix}-${w}`, events, { expectedVersion: version === 0 ? 'no_stream' : version - 1 });
          }
        }),
      );
      const firstController = new AbortController();
      const first = await collect(store.subscribeToAll({ after: from, signal: firstController.signal }), firstController, mine, 213);
      const secondController = new AbortController();
      const second = await collect(
        store.subscribeToAll({ after: first.at(-1)!.position, signal: secondController.signal }),
        secondController,
        mine,
        500 - 213,
      );
      const wholeController = new AbortController();
      const whole = await collect(store.subscribeToAll({ after: from, signal: wholeController.signal }), wholeController, mine, 500);
      expect([...first, ...second].map((e) => e.id)).toEqual(whole.map((e) => e.id));
      expect(new Set(whole.map((e) => e.id)).size).toBe(500);
      for (let w = 0; w < 5; w++) {
        expect(whole.filter((e) => e.streamName === `${prefix}-${w}`).map((e) => e.version)).toEqual(
          Array.from({ length: 100 }, (_, i) => i),
        );
      }
    });

    it('hands on a log of several reads each event once, in order, and a subscriber may stop inside one', async () => {
      // 5,000 events: more than one read of the log (the PostgreSQL adapter reads the next batch of 2,000 while it hands
      // this one on).
      const prefix = stream('long');
      const mine = (e: RecordedEvent) => e.streamName.startsWith(prefix);
      const from = await store.headPosition();
      for (let w = 0; w < 5; w++)
        for (let version = 0; version < 1_000; version += 100) {
          const events = Array.from({ length: 100 }, (_, n) => ({ type: 'Written', data: { w, n: version + n } }));
          await store.append(`${prefix}-${w}`, events, { expectedVersion: version === 0 ? 'no_stream' : version - 1 });
        }
      const wholeController = new AbortController();
      const whole = await collect(store.subscribeToAll({ after: from, signal: wholeController.signal }), wholeController, mine, 5_000);
      expect(new Set(whole.map((e) => e.id)).size).toBe(5_000);
      expect(whole.every((e, i) => i === 0 || e.position > whole[i - 1]!.position)).toBe(true);
      for (let w = 0; w < 5; w++)
        expect(whole.filter((e) => e.streamName === `${prefix}-${w}`).map((e) => e.version)).toEqual(
          Array.from({ length: 1_000 }, (_, i) => i),
        );
      const stopped = new AbortController();
      const part = await collect(store.subscribeToAll({ after: from, signal: stopped.signal }), stopped, mine, 2_100);
      expect(part.map((e) => e.id)).toEqual(whole.slice(0, 2_100).map((e) => e.id));
    });

    it('delivers the events of several streams in the order they were appended', async () => {
      const [a, b] = [stream('cross-a'), stream('cross-b')];
      const from = await store.headPosition();
      const appended = [
        await store.append(a, [{ type: 'A0', data: {} }], { expectedVersion: 'no_stream' }),
        await store.append(
          b,
          [
            { type: 'B0', data: {} },
            { type: 'B1', data: {} },
          ],
          { expectedVersion: 'no_stream' },
        ),
        await store.append(a, [{ type: 'A1', data: {} }], { expectedVersion: 0 }),
        await store.append(b, [{ type: 'B2', data: {} }], { expectedVersion: 1 }),
      ];
      for (let i = 1; i < appended.length; i++) expect(appended[i]!.position).toBeGreaterThan(appended[i - 1]!.position);
      const controller = new AbortController();
      const events = await collect(
        store.subscribeToAll({ after: from, signal: controller.signal }),
        controller,
        (e) => e.streamName === a || e.streamName === b,
        5,
      );
      expect(events.map((e) => e.type)).toEqual(['A0', 'B0', 'B1', 'A1', 'B2']);
      for (let i = 1; i < events.length; i++) expect(events[i]!.position).toBeGreaterThan(events[i - 1]!.position);
    });

    it('answers a retried append (the same ids at the same versions) as the first, writing nothing more', async () => {
      const name = stream('retry');
      await store.append(name, [{ type: 'Opened', data: {} }], { expectedVersion: 'no_stream' });
      const events = [
        { id: randomUUID(), type: 'Renamed', data: { to: 'x' } },
        { id: randomUUID(), type: 'Renamed', data: { to: 'y' } },
      ];
      const first = await store.append(name, events, { expectedVersion: 0 });
      const retried = await store.append(name, events, { expectedVersion: 0 });
      expect(retried.nextExpectedVersion).toBe(first.nextExpectedVersion);
      expect((await store.readStream(name)).map((e) => [e.version, e.id])).toEqual([
        [0, expect.any(String)],
        [1, events[0]!.id],
        [2, events[1]!.id],
      ]);
    });

    it('refuses an append larger than the limit with a typed error, writing nothing', async () => {
      const name = stream('large');
      const content = 'x'.repeat(MAX_APPEND_BYTES + 1);
      const refusal = await store
        .append(name, [{ type: 'Drafted', data: { content } }], { expectedVersion: 'no_stream' })
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(AppendTooLargeError);
      expect(refusal).toMatchObject({ streamName: name, maxBytes: MAX_APPEND_BYTES });
      expect(await store.readStream(name)).toEqual([]);
      // Just under the limit is accepted.
      const fits = 'y'.repeat(MAX_APPEND_BYTES - 4096);
      await store.append(name, [{ type: 'Drafted', data: { content: fits } }], { expectedVersion: 'no_stream' });
      expect(((await store.readStream(name))[0]!.data as { content: string }).content).toHaveLength(fits.length);
    });

    it('counts the backlog after a position, up to a cap, with when the oldest waiting event was recorded', async () => {
      const head = await store.headPosition();
      const before = Date.now();
      const name = stream('backlog');
      await store.append(
        name,
        [
          { type: 'E0', data: {} },
          { type: 'E1', data: {} },
          { type: 'E2', data: {} },
        ],
        { expectedVersion: 'no_stream' },
      );
      const last = await store.append(name, [{ type: 'E3', data: {} }], { expectedVersion: 2 });
      // Counted once a reader could read them: PostgreSQL holds events back while an older transaction appending to the
      // log is still open (under load, another's), so the count may lag the append for a moment.
      await expect.poll(async () => (await store.backlog(head, 1000)).events, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
      const waiting = await store.backlog(head, 1000);
      expect(waiting.oldestAt!.getTime()).toBeGreaterThan(before - 5000);
      expect(await store.backlog(head, 2)).toMatchObject({ events: 2 });
      expect(await store.backlog(last.position, 1000)).toEqual({ events: 0, oldestAt: null });
    });

    it('names its log the same way on every call', async () => {
      const identity = await store.identity();
      expect(identity).toMatch(/^(postgresql|kurrentdb):[0-9a-f-]{36}$/);
      expect(await store.identity()).toBe(identity);
    });
  });
}

describe('event store contract: PostgreSQL only', () => {
  it('refuses an id already used in another stream, and names the log per database', async () => {
    const database = await createTestDatabase();
    const other = await createTestDatabase();
    const store = await createPostgresEventStore({ connectionString: database.url });
    const again = await createPostgresEventStore({ connectionString: database.url });
    const elsewhere = await createPostgresEventStore({ connectionString: other.url });
    try {
      const id = randomUUID();
      await store.append(stream('first'), [{ id, type: 'Made', data: {} }], { expectedVersion: 'no_stream' });
      const second = stream('second');
      await expect(store.append(second, [{ id, type: 'Made', data: {} }], { expectedVersion: 'no_stream' })).rejects.toBeInstanceOf(
        DuplicateEventIdError,
      );
      expect(await store.readStream(second)).toEqual([]);
      expect(await again.identity()).toBe(await store.identity());
      expect(await elsewhere.identity()).not.toBe(await store.identity());
    } finally {
      await Promise.all([store.close(), again.close(), elsewhere.close()]);
      await Promise.all([database.drop(), other.drop()]);
    }
  });

  it('reads the log once for the subscriptions one append wakes together, and again for one that asks later', async () => {
    const database = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: database.url });
    // The subscriptions' reads of the log that brought back the event watched for (a poll that finds nothing is not one).
    let watched = '';
    let delivered = 0;
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<{ rows: { id: string }[] }>;
    (pool as { query: unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      if ((args[0] as { name?: string } | null)?.name?.startsWith('bhc_es_read_after'))
        void result.then(({ rows }) => {
          if (rows.some((row) => row.id === watched)) delivered++;
        });
      return result;
    };
    const store = await createPostgresEventStore({ pool });
    const controllers = [new AbortController(), new AbortController()];
    try {
      const name = stream('shared');
      const head = (await store.append(name, [{ type: 'E0', data: {} }], { expectedVersion: 'no_stream' })).position;
      let caughtUp = 0;
      const got: RecordedEvent[][] = [[], []];
      const seen = controllers.map((controller, i) =>
        collect(
          store.subscribeToAll({ after: head, signal: controller.signal, onCaughtUp: () => void caughtUp++ }),
          controller,
          (event) => event.streamName === name,
          2,
          (events) => (got[i] = [...events]),
        ),
      );
      await expect.poll(() => caughtUp).toBeGreaterThanOrEqual(2);
      watched = randomUUID();
      await store.append(name, [{ id: watched, type: 'E1', data: {} }], { expectedVersion: 0 });
      await expect.poll(() => got.every((events) => events.length === 1)).toBe(true);
      expect(delivered).toBe(1);

      // One that is not ready when the others read (busy with what it was given) reads for itself, and misses nothing.
      const late = new AbortController();
      const lateSeen = collect(store.subscribeToAll({ after: 0, signal: late.signal }), late, (event) => event.streamName === name, 3);
      await store.append(name, [{ type: 'E2', data: {} }], { expectedVersion: 1 });
      const all = await Promise.all(seen);
      expect(all.map((events) => events.map((event) => event.type))).toEqual([
        ['E1', 'E2'],
        ['E1', 'E2'],
      ]);
      expect((await lateSeen).map((event) => event.type)).toEqual(['E0', 'E1', 'E2']);
    } finally {
      for (const controller of controllers) controller.abort();
      await store.close();
      await pool.end();
      await database.drop();
    }
  });

  it('retries an append on a connection the server dropped, and reports a server it cannot reach as unavailable', async () => {
    const database = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    pool.on('error', () => undefined);
    const store = await createPostgresEventStore({ pool });
    try {
      const name = stream('dropped');
      await store.append(name, [{ type: 'E0', data: {} }], { expectedVersion: 'no_stream' });
      // Every connection of the pool is ended by the server (as in a restart or a failover).
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      await admin.end();
      await store.append(name, [{ type: 'E1', data: {} }], { expectedVersion: 0 });
      expect((await store.readStream(name)).map((e) => e.type)).toEqual(['E0', 'E1']);

      let attempts = 0;
      const connectToNowhere = () => {
        attempts++;
        return new pg.Client({ host: '127.0.0.1', port: 1, user: 'postgres' }).connect();
      };
      const refusal = await retryWhileUnavailable(connectToNowhere, isPostgresUnavailable, [10, 10]).catch((error: unknown) => error);
      expect(attempts).toBe(3);
      expect(refusal).toBeInstanceOf(EventStoreUnavailableError);
      expect((refusal as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await store.close();
      await pool.end();
      await database.drop();
    }
  });
});
