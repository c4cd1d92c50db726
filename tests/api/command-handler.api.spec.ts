/**
 * The command handler keeps the folded state of the streams it used last, past their last queued command: the next
 * command on such a stream reads only what the stream holds after the version it kept (a post liked a hundred times
 * was read and folded whole at each like), and still sees what anyone else appended meanwhile.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createPostgresEventStore } from '../../platform/event-store/postgres';
import type { EventStore } from '../../platform/event-store/port';
import { createCommandHandler } from '../../platform/command-handler';
import type { Decider, DomainEvent } from '../../shared/domain';

let database: TestDatabase;
let pool: pg.Pool;
let store: EventStore;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url });
  store = await createPostgresEventStore({ pool });
});

afterAll(async () => {
  await store.close();
  await pool.end();
  await database.drop();
});

type Counted = DomainEvent & { type: 'Counted'; data: Record<string, never> };
const counter: Decider<number, { type: 'Count' }, Counted> = {
  initialState: () => 0,
  evolve: (count) => count + 1,
  decide: () => [{ type: 'Counted', data: {} }],
};

it('reads only the tail of a stream it used before, and sees what others appended meanwhile', async () => {
  const reads: { stream: string; afterVersion: number | undefined }[] = [];
  const watched: EventStore = {
    ...store,
    readStream: (stream, options) => {
      reads.push({ stream, afterVersion: options?.afterVersion });
      return store.readStream(stream, options);
    },
  };
  const handle = createCommandHandler({ eventStore: watched, progress: { waitFor: async () => true } });

  // One command at a time: each finds no other queued on its stream.
  expect((await handle(counter, 'counter-1', { type: 'Count' })).state).toBe(1);
  expect((await handle(counter, 'counter-1', { type: 'Count' })).state).toBe(2);
  // Another process appends to the same stream.
  await store.append('counter-1', [{ type: 'Counted', data: {} }], { expectedVersion: 1 });
  expect((await handle(counter, 'counter-1', { type: 'Count' })).state).toBe(4);

  expect(reads).toEqual([
    { stream: 'counter-1', afterVersion: undefined },
    { stream: 'counter-1', afterVersion: 0 },
    { stream: 'counter-1', afterVersion: 1 },
  ]);
  expect((await store.readStream('counter-1')).map((event) => event.version)).toEqual([0, 1, 2, 3]);
});
