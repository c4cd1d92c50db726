/**
 * One contract for every event store adapter: PostgreSQL always, KurrentDB when
 * KURRENTDB_URL is set (reported as skipped otherwise).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createPostgresEventStore } from '../../server/infrastructure/event-store/postgres';
import { createKurrentDbEventStore } from '../../server/infrastructure/event-store/kurrentdb';
import { type EventStore, type RecordedEvent, WrongExpectedVersionError } from '../../server/infrastructure/event-store/port';

interface Adapter {
  name: string;
  skip: boolean;
  open(): Promise<{ store: EventStore; close(): Promise<void> }>;
}

const adapters: Adapter[] = [
  {
    name: 'PostgreSQL',
    skip: false,
    async open() {
      const database: TestDatabase = await createTestDatabase();
      const pool = new pg.Pool({ connectionString: database.url });
      const store = await createPostgresEventStore({ pool });
      return {
        store,
        async close() {
          await store.close();
          await pool.end();
          await database.drop();
        },
      };
    },
  },
  {
    name: 'KurrentDB',
    skip: !process.env.KURRENTDB_URL,
    async open() {
      const store = createKurrentDbEventStore(process.env.KURRENTDB_URL!);
      return { store, close: () => store.close() };
    },
  },
];

/** Streams unique to one run, so the suite also works against a shared KurrentDB. */
const stream = (type: string) => `${type}-${randomUUID()}`;

async function collect(iterable: AsyncIterable<RecordedEvent>, count: number, controller: AbortController, filter: (e: RecordedEvent) => boolean) {
  const seen: RecordedEvent[] = [];
  for await (const event of iterable) {
    if (filter(event)) seen.push(event);
    if (seen.length >= count) controller.abort();
  }
  return seen;
}

for (const adapter of adapters) {
  describe.skipIf(adapter.skip)(`event store contract: ${adapter.name}`, () => {
    let store: EventStore;
    let close: () => Promise<void>;
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
      const second = await store.append(name, [{ type: 'Paid', data: { by: 'card' } }, { type: 'Shipped', data: {} }], { expectedVersion: 0 });
      expect(second.nextExpectedVersion).toBe(2);
      expect(second.position).toBeGreaterThan(first.position);
      const events = await store.readStream(name);
      expect(events.map((e) => [e.version, e.type, e.data])).toEqual([
        [0, 'Placed', { total: 12.5 }],
        [1, 'Paid', { by: 'card' }],
        [2, 'Shipped', {}],
      ]);
      expect(events.every((e) => e.streamName === name && e.createdAt instanceof Date)).toBe(true);
    });

    it('returns an empty list for a stream that does not exist', async () => {
      expect(await store.readStream(stream('missing'))).toEqual([]);
    });

    it('keeps the ids and metadata it was given', async () => {
      const name = stream('meta');
      const id = randomUUID();
      await store.append(name, [{ id, type: 'Noted', data: { text: 'é ☕' }, metadata: { actorId: 'member-1', commandId: 'c-1' } }], { expectedVersion: 'any' });
      const [event] = await store.readStream(name);
      expect(event).toMatchObject({ id, data: { text: 'é ☕' }, metadata: { actorId: 'member-1', commandId: 'c-1' } });
    });

    it('checks every kind of expected version', async () => {
      const name = stream('checked');
      await expect(store.append(name, [{ type: 'A', data: {} }], { expectedVersion: 'stream_exists' })).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(store.append(name, [{ type: 'A', data: {} }], { expectedVersion: 3 })).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await store.append(name, [{ type: 'A', data: {} }], { expectedVersion: 'no_stream' });
      await expect(store.append(name, [{ type: 'B', data: {} }], { expectedVersion: 'no_stream' })).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await store.append(name, [{ type: 'B', data: {} }], { expectedVersion: 'stream_exists' });
      await expect(store.append(name, [{ type: 'C', data: {} }], { expectedVersion: 0 })).rejects.toMatchObject({ name: 'WrongExpectedVersionError', actual: 1 });
      await store.append(name, [{ type: 'C', data: {} }], { expectedVersion: 1 });
      await store.append(name, [{ type: 'D', data: {} }], { expectedVersion: 'any' });
      expect((await store.readStream(name)).map((e) => e.type)).toEqual(['A', 'B', 'C', 'D']);
    });

    it('delivers every event after a position, in order, then live ones', async () => {
      const name = stream('sub');
      const before = await store.append(name, [{ type: 'E0', data: { n: 0 } }], { expectedVersion: 'no_stream' });
      await store.append(name, [{ type: 'E1', data: { n: 1 } }, { type: 'E2', data: { n: 2 } }], { expectedVersion: 0 });
      const controller = new AbortController();
      const mine = (e: RecordedEvent) => e.streamName === name;
      const seen = collect(store.subscribeToAll({ after: before.position, signal: controller.signal }), 4, controller, mine);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await store.append(name, [{ type: 'E3', data: { n: 3 } }], { expectedVersion: 2 });
      await store.append(name, [{ type: 'E4', data: { n: 4 } }], { expectedVersion: 3 });
      const events = await seen;
      expect(events.map((e) => e.type)).toEqual(['E1', 'E2', 'E3', 'E4']);
      const positions = events.map((e) => e.position);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    });

    it('delivers from the start of the log and ends when aborted', async () => {
      const name = stream('from-start');
      await store.append(name, [{ type: 'Only', data: {} }], { expectedVersion: 'no_stream' });
      const controller = new AbortController();
      const events = await collect(store.subscribeToAll({ after: 0, signal: controller.signal }), 1, controller, (e) => e.streamName === name);
      expect(events).toHaveLength(1);
      expect(controller.signal.aborted).toBe(true);
    });

    it('reports the head position of the log', async () => {
      const result = await store.append(stream('head'), [{ type: 'Last', data: {} }], { expectedVersion: 'no_stream' });
      expect(await store.headPosition()).toBeGreaterThanOrEqual(result.position);
    });
  });
}
