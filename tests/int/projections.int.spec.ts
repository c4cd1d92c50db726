import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createPostgresEventStore } from '../../platform/event-store/postgres';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import type { EventStore } from '../../platform/event-store/port';
import type { DocumentStore } from '../../platform/document-store/port';
import { createProjectionRunner, type Projection } from '../../platform/projections/runner';
import { CHECKPOINTS, createProjectionProgress } from '../../platform/projections/progress';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import { createCommandHandler } from '../../platform/command-handler';
import { type Decider, fail } from '../../shared/domain';

type TallyEvent = { type: 'Counted'; data: { by: number } } | { type: 'Closed'; data: Record<string, never> };

/** A read model per stream plus one document fed by every stream, as the real ones are. */
function tallyProjection(options: { failAt?: number } = {}): Projection {
  let failed = false;
  return {
    name: 'tally',
    collections: ['tallies', 'tally_totals'],
    async apply(event, { store }) {
      if (!event.streamName.startsWith('tally-')) return;
      if (options.failAt !== undefined && !failed && event.position >= options.failAt) {
        failed = true;
        throw new Error('simulated crash');
      }
      const data = event.data as { by?: number };
      await applyToDocument(store.collection<Tally>('tallies'), event.streamName, event.position, (current) =>
        event.type === 'Closed' ? null : { count: (current?.count ?? 0) + (data.by ?? 0), events: (current?.events ?? 0) + 1 },
      );
      await applyToDocument(store.collection<Total>('tally_totals'), 'all', event.position, (current) => ({
        total: (current?.total ?? 0) + (data.by ?? 0),
        streams: [...new Set([...(current?.streams ?? []), event.streamName])].sort(),
      }));
    },
  };
}

type Tally = Positioned & { _id: string; count: number; events: number };
type Total = Positioned & { _id: string; total: number; streams: string[] };

const silent = { info: () => undefined, error: () => undefined };

let database: TestDatabase;
let pool: pg.Pool;
let eventStore: EventStore;
let store: DocumentStore;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url });
  eventStore = await createPostgresEventStore({ pool });
  store = createPostgresDocumentStore({ pool });
  for (let i = 0; i < 300; i++) {
    const stream = `tally-${i % 17}`;
    await eventStore.append(stream, [{ type: 'Counted', data: { by: (i % 5) + 1 } }], { expectedVersion: 'any' });
  }
  await eventStore.append('tally-3', [{ type: 'Closed', data: {} }], { expectedVersion: 'any' });
  await eventStore.append('other-1', [{ type: 'Unrelated', data: {} }], { expectedVersion: 'any' });
});
afterAll(async () => {
  await eventStore?.close();
  await store?.close();
  await pool?.end();
  await database?.drop();
});

async function snapshot() {
  const tallies = await store.collection('tallies').find({}, { sort: { _id: 1 } });
  const totals = await store.collection('tally_totals').find({});
  return { tallies, totals };
}

async function runToHead(projection: Projection) {
  const progress = createProjectionProgress({ store, runnerName: 'tally-runner', local: true });
  const runner = createProjectionRunner({ name: 'tally-runner', eventStore, store, projections: [projection], progress, logger: silent });
  await runner.start();
  const head = await eventStore.headPosition();
  await progress.waitFor(head, 10_000);
  await runner.stop();
  return { runner, reached: progress.current(), head };
}

describe('projection runner', () => {
  it('builds the read models from the whole log', async () => {
    const { reached, head } = await runToHead(tallyProjection());
    expect(reached).toBe(head);
    const { tallies, totals } = await snapshot();
    expect(tallies).toHaveLength(16);
    expect(totals[0]?.total).toBe(Array.from({ length: 300 }, (_, i) => (i % 5) + 1).reduce((a, b) => a + b, 0));
  });

  it('gives identical read models when the log is applied again over them', async () => {
    const before = await snapshot();
    await store.collection(CHECKPOINTS).deleteMany({});
    await runToHead(tallyProjection());
    expect(await snapshot()).toEqual(before);
  });

  it('gives identical read models after a rebuild from scratch', async () => {
    const before = await snapshot();
    const progress = createProjectionProgress({ store, runnerName: 'tally-runner', local: true });
    const runner = createProjectionRunner({ name: 'tally-runner', eventStore, store, projections: [tallyProjection()], progress, logger: silent });
    await runner.reset();
    expect(await store.collection('tallies').countDocuments({})).toBe(0);
    await runToHead(tallyProjection());
    expect(await snapshot()).toEqual(before);
  });

  it('stops on a failing projection without skipping the event, and resumes after a restart', async () => {
    const before = await snapshot();
    const progress = createProjectionProgress({ store, runnerName: 'tally-runner', local: true });
    const crashing = createProjectionRunner({ name: 'tally-runner', eventStore, store, projections: [tallyProjection({ failAt: 150 })], progress, logger: silent });
    await crashing.reset();
    await crashing.start();
    await expect.poll(() => crashing.failure(), { timeout: 15_000 }).not.toBeNull();
    await crashing.stop();
    const stoppedAt = crashing.failure()!.position;
    const checkpoint = await store.collection(CHECKPOINTS).findOne({ _id: 'tally-runner' });
    expect(checkpoint?.position).toBeLessThan(stoppedAt);
    expect(await snapshot()).not.toEqual(before);

    await runToHead(tallyProjection());
    expect(await snapshot()).toEqual(before);
  });
});

describe('command handler', () => {
  type State = { open: boolean; count: number };
  type Command = { type: 'Count'; by: number } | { type: 'Close' };
  const decider: Decider<State, Command, TallyEvent> = {
    initialState: () => ({ open: true, count: 0 }),
    evolve: (state, event) => (event.type === 'Counted' ? { ...state, count: state.count + event.data.by } : { ...state, open: false }),
    decide: (command, state) => {
      if (!state.open) throw fail.rule('This tally is closed');
      if (command.type === 'Close') return [{ type: 'Closed', data: {} }];
      return command.by === 0 ? [] : [{ type: 'Counted', data: { by: command.by } }];
    },
  };

  it('answers only once the read models show the write, and serialises a hot stream', async () => {
    const progress = createProjectionProgress({ store, runnerName: 'tally-runner', local: true });
    const runner = createProjectionRunner({ name: 'tally-runner', eventStore, store, projections: [tallyProjection()], progress, logger: silent });
    await runner.start();
    const handle = createCommandHandler({ eventStore, progress });
    try {
      const results = await Promise.all(Array.from({ length: 50 }, () => handle(decider, 'tally-hot', { type: 'Count', by: 2 })));
      expect(results.every((r) => r.position !== null)).toBe(true);
      const last = await handle(decider, 'tally-hot', { type: 'Count', by: 1 });
      expect(last.state.count).toBe(101);
      expect((await store.collection('tallies').findOne({ _id: 'tally-hot' }))?.count).toBe(101);

      const noop = await handle(decider, 'tally-hot', { type: 'Count', by: 0 });
      expect(noop).toMatchObject({ events: [], position: null });

      await handle(decider, 'tally-hot', { type: 'Close' });
      await expect(handle(decider, 'tally-hot', { type: 'Count', by: 1 })).rejects.toMatchObject({ code: 'rule', message: 'This tally is closed' });
      expect(await store.collection('tallies').findOne({ _id: 'tally-hot' })).toBeNull();
    } finally {
      await runner.stop();
    }
  });
});
