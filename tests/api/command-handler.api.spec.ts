/**
 * The command handler keeps the folded state of the streams it used last, past their last queued command: the next
 * command on such a stream is decided on it without reading the stream when it appends (its expected version finds
 * out what anyone else appended meanwhile, and then only the tail is read: a post liked a hundred times was read and
 * folded whole at each like), and a decision to do nothing or a refusal is always made on what the stream holds.
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

it('decides on the state it kept without reading, and reads only the tail once another process appended', async () => {
  const reads: { stream: string; afterVersion: number | undefined }[] = [];
  const handle = createCommandHandler({ eventStore: watched(reads), progress: { waitFor: async () => true } });

  // One command at a time: each finds no other queued on its stream.
  expect((await handle(counter, 'counter-1', { type: 'Count' })).state).toBe(1);
  expect((await handle(counter, 'counter-1', { type: 'Count' })).state).toBe(2);
  // Another process appends to the same stream: the next append, expecting version 1, is refused, and the tail read.
  await store.append('counter-1', [{ type: 'Counted', data: {} }], { expectedVersion: 1 });
  expect((await handle(counter, 'counter-1', { type: 'Count' })).state).toBe(4);

  expect(reads).toEqual([
    { stream: 'counter-1', afterVersion: undefined },
    { stream: 'counter-1', afterVersion: 1 },
  ]);
  expect((await store.readStream('counter-1')).map((event) => event.version)).toEqual([0, 1, 2, 3]);
});

type Switched = DomainEvent & { type: 'SwitchedOn' | 'SwitchedOff'; data: Record<string, never> };
/** Switching on what is on already does nothing; switching off what is off is refused. */
const lamp: Decider<boolean, { type: 'On' | 'Off' }, Switched> = {
  initialState: () => false,
  evolve: (_on, event) => event.type === 'SwitchedOn',
  decide: (command, on) => {
    if (command.type === 'On') return on ? [] : [{ type: 'SwitchedOn', data: {} }];
    if (!on) throw new Error('It is off already');
    return [{ type: 'SwitchedOff', data: {} }];
  },
};

it('does nothing, or refuses, only on what the stream holds: never on the state it kept alone', async () => {
  const reads: { stream: string; afterVersion: number | undefined }[] = [];
  const handle = createCommandHandler({ eventStore: watched(reads), progress: { waitFor: async () => true } });
  expect((await handle(lamp, 'lamp-1', { type: 'On' })).events).toHaveLength(1);
  // Another process switches it off: the kept state still says on.
  await store.append('lamp-1', [{ type: 'SwitchedOff', data: {} }], { expectedVersion: 0 });
  const on = await handle(lamp, 'lamp-1', { type: 'On' });
  expect(on.events.map((event) => event.type)).toEqual(['SwitchedOn']);
  expect(on.state).toBe(true);

  await handle(lamp, 'lamp-2', { type: 'On' });
  await store.append('lamp-2', [{ type: 'SwitchedOff', data: {} }], { expectedVersion: 0 });
  // The kept state would switch it off; the stream says it is off: refused, and nothing appended.
  await expect(handle(lamp, 'lamp-2', { type: 'Off' })).rejects.toThrow('It is off already');
  expect((await store.readStream('lamp-2')).map((event) => event.type)).toEqual(['SwitchedOn', 'SwitchedOff']);
  expect(reads.filter((read) => read.afterVersion !== undefined)).toEqual([
    { stream: 'lamp-1', afterVersion: 0 },
    { stream: 'lamp-2', afterVersion: 0 },
  ]);
});

function watched(reads: { stream: string; afterVersion: number | undefined }[]): EventStore {
  return {
    ...store,
    readStream: (stream, options) => {
      reads.push({ stream, afterVersion: options?.afterVersion });
      return store.readStream(stream, options);
    },
  };
}
