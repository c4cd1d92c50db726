/**
 * The projection runner and the command handler on every pair of adapters the app can run on: PostgreSQL for both
 * always; KurrentDB and MongoDB when KURRENTDB_URL and MONGODB_URL are set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { backends } from '../support/adapters';
import type { EventStore, RecordedEvent, SubscribeOptions } from '../../platform/event-store/port';
import type { DocumentStore } from '../../platform/document-store/port';
import { createProjectionRunner, readingCommitted, type Projection, type ProjectionRunnerOptions } from '../../platform/projections/runner';
import { CHECKPOINTS, createProjectionProgress, runnerLag } from '../../platform/projections/progress';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import { createCommandHandler } from '../../platform/command-handler';
import { type Decider, fail } from '../../shared/domain';

type TallyEvent = { type: 'Counted'; data: { by: number } } | { type: 'Closed'; data: Record<string, never> };

/** A read model per stream plus one document fed by every stream, as the real ones are. */
function tallyProjection(options: { failAt?: number } = {}): Projection {
  return {
    name: 'tally',
    version: 1,
    collections: ['tallies', 'tally_totals'],
    async apply(event, { store }) {
      if (!event.streamName.startsWith(TALLY)) return;
      // A bug: this code cannot apply the event, however often it is given it.
      if (options.failAt !== undefined && event.position === options.failAt) throw new Error('simulated bug');
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

let eventStore: EventStore;
let store: DocumentStore;
/** Whether the event store is this test's alone (a KurrentDB server is shared: others append meanwhile). */
let isolated: boolean;
/**
 * The position of the last event the file appends before its tests: the head they run to. (The visible head,
 * `headPosition`, trails writers still open anywhere on the server, which other test files may be.)
 */
let lastAppended = 0;
/** Stream names of this run: `${TALLY}3` etc. */
let TALLY = 'tally-';

for (const backend of backends) {
  describe.skipIf(backend.skip)(`read models on ${backend.name}`, () => {
    let closeAll: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      const events = await backend.events.open();
      const documents = await backend.documents.open();
      eventStore = events.store;
      store = documents.store;
      isolated = events.isolated;
      closeAll = async () => {
        await events.close();
        await documents.close();
      };
      TALLY = `tally${randomBytes(3).toString('hex')}-`;
      for (let i = 0; i < 300; i++) {
        const stream = `${TALLY}${i % 17}`;
        await eventStore.append(stream, [{ type: 'Counted', data: { by: (i % 5) + 1 } }], { expectedVersion: 'any' });
      }
      await eventStore.append(`${TALLY}3`, [{ type: 'Closed', data: {} }], { expectedVersion: 'any' });
      lastAppended = (await eventStore.append(`other${TALLY}1`, [{ type: 'Unrelated', data: {} }], { expectedVersion: 'any' })).position;
    }, 120_000);
    afterAll(async () => {
      await closeAll?.();
    });

    async function snapshot() {
      const tallies = await store.collection('tallies').find({}, { sort: { _id: 1 } });
      const totals = await store.collection('tally_totals').find({});
      return { tallies, totals };
    }

    /**
     * A runner named `name` (its progress read from this file's document store under the same name) of `projections`,
     * silent unless given a logger; `options` may give it another event store or document store.
     */
    function runnerOf(projections: Projection[], options: Partial<ProjectionRunnerOptions> & { name?: string } = {}) {
      const name = options.name ?? 'tally-runner';
      const progress = createProjectionProgress({ store, runnerName: name, local: true });
      const runner = createProjectionRunner({ eventStore, store, progress, logger: silent, ...options, name, projections });
      return { runner, progress };
    }

    async function runToHead(projection: Projection) {
      const { runner, progress } = runnerOf([projection]);
      const head = isolated ? Math.max(lastAppended, await eventStore.headPosition()) : await eventStore.headPosition();
      await runner.start();
      await progress.waitFor(head, 10_000);
      await runner.stop();
      return { runner, reached: progress.current(), head };
    }

    describe('projection runner', () => {
      it('stops when asked while it starts or at once after, every time, and writes nothing after', async () => {
        // An abort that came before the runner began to follow the log fired no event for it to hear: it followed on.
        // Every other time it is stopped while it starts (a leader that loses its lock at once, a process told to end).
        for (let i = 0; i < 10; i++) {
          const { runner } = runnerOf([tallyProjection()], { name: 'tally-runner-stopped' });
          const starting = runner.start();
          if (i % 2 === 0) await starting;
          const stopped = await Promise.race([
            runner.stop().then(() => 'stopped'),
            new Promise((resolve) => setTimeout(resolve, 5_000, 'still following')),
          ]);
          await starting;
          expect(stopped, `start and stop ${i + 1}`).toBe('stopped');
        }
        // Nor does its housekeeping go on: a stopped runner stores no checkpoint nor heartbeat (it wrote a stale
        // position over a newer runner's every second).
        const stored = () => store.collection(CHECKPOINTS).find({ runner: 'tally-runner-stopped' }, { sort: { _id: 1 } });
        const summary = () => store.collection(CHECKPOINTS).findOne({ _id: 'tally-runner-stopped' });
        const [checkpointsAfter, summaryAfter] = [await stored(), await summary()];
        expect(summaryAfter).toMatchObject({ summary: true });
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        expect(await summary()).toEqual(summaryAfter);
        expect(await stored()).toEqual(checkpointsAfter);
      });

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
        const { runner } = runnerOf([tallyProjection()]);
        await runner.reset();
        expect(await store.collection('tallies').countDocuments({})).toBe(0);
        await runToHead(tallyProjection());
        expect(await snapshot()).toEqual(before);
      });

      it('stops a failing projection on the event it fails on, keeping every event before it, and resumes after a restart', async () => {
        const before = await snapshot();
        const [, , failing] = (await eventStore.readStream(`${TALLY}3`)).map((event) => event.position);
        const { runner: crashing } = runnerOf([tallyProjection({ failAt: failing })]);
        await crashing.reset();
        await crashing.start();
        await expect.poll(() => crashing.failure(), { timeout: 15_000 }).not.toBeNull();
        await crashing.stop();
        expect(crashing.failure()).toMatchObject({ position: failing, projection: 'tally', error: 'Error: simulated bug' });
        const checkpoint = await store.collection(CHECKPOINTS).findOne({ _id: 'tally' });
        // Every event before the failing one is applied (in pages, and the failing page event by event), none after.
        expect(checkpoint).toMatchObject({ failed: { position: failing } });
        expect(checkpoint?.position).toBeLessThan(failing!);
        expect((await store.collection<Tally>('tallies').findOne({ _id: `${TALLY}3` }))?.events).toBe(2);
        expect(await snapshot()).not.toEqual(before);

        await runToHead(tallyProjection());
        expect(await snapshot()).toEqual(before);
      });
    });

    /**
     * The event store as seen through a subscription that drops: the n-th subscription made delivers `deliver` events
     * then ends cleanly or fails, as a KurrentDB restart or leader change, or a lost connection, does.
     */
    function droppingSubscriptions(
      inner: EventStore,
      drops: { deliver: number; then: 'end' | 'fail' }[],
    ): EventStore & { subscriptions: number[] } {
      const subscriptions: number[] = [];
      return {
        ...inner,
        subscriptions,
        async *subscribeToAll(options: SubscribeOptions): AsyncGenerator<RecordedEvent> {
          const drop = drops[subscriptions.length];
          subscriptions.push(options.after);
          let delivered = 0;
          for await (const event of inner.subscribeToAll(options)) {
            if (drop && delivered === drop.deliver) {
              if (drop.then === 'fail') throw new Error('14 UNAVAILABLE: the server went away');
              return;
            }
            yield event;
            delivered++;
          }
        },
      };
    }

    /** The document store of a process that waits `ms` before each write (a busy or distant runner). */
    function slowWrites(inner: DocumentStore, ms: number): DocumentStore {
      const pause = () => new Promise((resolve) => setTimeout(resolve, ms));
      return new Proxy(inner, {
        get(target, property, receiver) {
          if (property !== 'collection') return Reflect.get(target, property, receiver);
          return (name: string) =>
            new Proxy(target.collection(name), {
              get(collection, method, collectionReceiver) {
                const value = Reflect.get(collection, method, collectionReceiver);
                if (typeof value !== 'function') return value;
                if (!['insertOne', 'replaceOne', 'deleteOne'].includes(String(method))) return value.bind(collection);
                return async (...args: unknown[]) => {
                  await pause();
                  return value.apply(collection, args);
                };
              },
            });
        },
      });
    }

    describe('projection runner at scale', () => {
      it('subscribes again from the last event applied when its subscription ends or fails, saying so meanwhile', async () => {
        const before = await snapshot();
        const flaky = droppingSubscriptions(eventStore, [
          { deliver: 40, then: 'end' },
          { deliver: 0, then: 'fail' },
          { deliver: 25, then: 'fail' },
        ]);
        const states: string[] = [];
        const logged: string[] = [];
        const { runner, progress } = runnerOf([tallyProjection()], {
          eventStore: flaky,
          logger: { info: () => undefined, error: (_fields: unknown, message?: string) => void logged.push(String(message)) },
          resubscribeDelay: (failures) => {
            states.push(`${runner.subscription().status} ${runner.subscription().failures}`);
            return 20 * failures;
          },
        });
        await runner.reset();
        await runner.start();
        const head = isolated ? lastAppended : await eventStore.headPosition();
        expect(await progress.waitFor(head, 15_000)).toBe(true);
        await runner.stop();

        expect(runner.failure()).toBeNull();
        expect(await snapshot()).toEqual(before);
        // Each new subscription starts after the last event applied; a drop with nothing delivered counts as a second failure in a row.
        expect(flaky.subscriptions).toHaveLength(4);
        expect(flaky.subscriptions[0]).toBe(0);
        expect(flaky.subscriptions[1]).toBeGreaterThan(0);
        expect(flaky.subscriptions[2]).toBe(flaky.subscriptions[1]);
        expect(flaky.subscriptions[3]).toBeGreaterThan(flaky.subscriptions[2]!);
        expect(states).toEqual(['resubscribing 1', 'resubscribing 2', 'resubscribing 1']);
        expect(runner.subscription()).toMatchObject({ status: 'running', failures: 0 });
        expect(logged.filter((line) => line.includes('subscription dropped'))).toEqual([
          expect.stringContaining('(the subscription ended)'),
          expect.stringContaining('(14 UNAVAILABLE: the server went away)'),
          expect.stringContaining('(14 UNAVAILABLE: the server went away)'),
        ]);
      });

      it('rebuilds a projection whose checkpoint was written against another event store, from this store’s log', async () => {
        const before = await snapshot();
        const checkpoints = store.collection(CHECKPOINTS);
        const saved = await checkpoints.findOne({ _id: 'tally' });
        await checkpoints.replaceOne(
          { _id: 'tally' },
          { ...saved!, position: 3, eventStore: 'kurrentdb:00000000-0000-4000-8000-000000000000' },
        );
        const logged: string[] = [];
        const { runner } = runnerOf([tallyProjection()], {
          logger: { info: () => undefined, error: (_fields: unknown, message?: string) => void logged.push(String(message)) },
        });
        await runner.start();
        await expect
          .poll(async () => (await checkpoints.findOne({ _id: 'tally' }))?.eventStore, { timeout: 15_000 })
          .toBe(await eventStore.identity());
        await runner.stop();
        expect(logged[0]).toContain('written against another event store (kurrentdb:00000000-0000-4000-8000-000000000000)');
        expect(logged[0]).toContain('rebuilt from this store');
        expect(await snapshot()).toEqual(before);
        expect(await store.listCollections()).not.toContain('tallies__rebuild');
      });

      it('records the event store with the checkpoint', async () => {
        const identity = await eventStore.identity();
        expect(await store.collection(CHECKPOINTS).findOne({ _id: 'tally' })).toMatchObject({
          eventStore: identity,
          runner: 'tally-runner',
          version: 1,
        });
        expect(await store.collection(CHECKPOINTS).findOne({ _id: 'tally-runner' })).toMatchObject({ eventStore: identity, summary: true });
      });

      it('gives the same read models when two runners apply the log at once, one behind the other', async () => {
        // Counts that only grow (a deletion undone by a runner far behind is the one thing the guard cannot see).
        const racing = (): Projection => ({
          name: 'race',
          version: 1,
          collections: ['race_counts', 'race_totals'],
          async apply(event, { store }) {
            if (!event.streamName.startsWith(TALLY) || event.type !== 'Counted') return;
            const by = (event.data as { by: number }).by;
            await applyToDocument(store.collection<Tally>('race_counts'), event.streamName, event.position, (current) => ({
              count: (current?.count ?? 0) + by,
              events: (current?.events ?? 0) + 1,
            }));
            await applyToDocument(store.collection<Total>('race_totals'), 'all', event.position, (current) => ({
              total: (current?.total ?? 0) + by,
              streams: [],
            }));
          },
        });
        const race = async () => ({
          counts: await store.collection('race_counts').find({}, { sort: { _id: 1 } }),
          totals: await store.collection('race_totals').find({}),
        });
        const head = isolated ? lastAppended : await eventStore.headPosition();
        const { runner: alone, progress: single } = runnerOf([racing()], { name: 'race-alone' });
        await alone.start();
        await single.waitFor(head, 15_000);
        await alone.stop();
        const expected = await race();
        expect(expected.totals[0]).toMatchObject({ total: Array.from({ length: 300 }, (_, i) => (i % 5) + 1).reduce((a, b) => a + b, 0) });

        for (const round of [1]) {
          await alone.reset();
          // The runner ahead writes slowly, so the one behind catches up with it and they overlap write for write.
          const { runner: first, progress: ahead } = runnerOf([racing()], { name: 'race-ahead', store: slowWrites(store, 3) });
          const { runner: second, progress: behind } = runnerOf([racing()], { name: 'race-behind' });
          await store.collection(CHECKPOINTS).deleteMany({ _id: { $in: ['race', 'race-ahead', 'race-behind'] } });
          await first.start();
          await ahead.waitFor(head * ((round + 1) / 5), 15_000);
          await second.start();
          await Promise.all([ahead.waitFor(head, 15_000), behind.waitFor(head, 15_000)]);
          await Promise.all([first.stop(), second.stop()]);
          expect([first.failure(), second.failure()]).toEqual([null, null]);
          expect(await race()).toEqual(expected);
        }
      });

      it('never writes a document back to an older state when another runner moved it on between read and write', async () => {
        const fast = store.collection<Total>('guard_totals');
        const slow = slowWrites(store, 100).collection<Total>('guard_totals');
        const add = (by: number) => (current: Total | null) => ({ total: (current?.total ?? 0) + by, streams: [] });
        /** A runner reads `id` to apply the event at `late` and is slow to write; meanwhile another applies `positions`. */
        async function overtaken(id: string, late: number, positions: number[]) {
          const slowWrite = applyToDocument(slow, id, late, add(late));
          await new Promise((resolve) => setTimeout(resolve, 30));
          for (const position of positions) await applyToDocument(fast, id, position, add(position));
          await slowWrite;
          return fast.findOne({ _id: id });
        }
        await applyToDocument(fast, 'all', 1, add(1));
        expect(await overtaken('all', 5, [5, 6])).toEqual({ _id: 'all', total: 12, streams: [], _position: 6 });
        // The same for a document the two create at once.
        expect(await overtaken('new', 2, [2, 3])).toEqual({ _id: 'new', total: 5, streams: [], _position: 3 });
      });

      it('keeps what its live pages read and wrote: a document changed again in a later page is not read again', async () => {
        await runToHead(tallyProjection());
        const stream = `${TALLY}5`;
        const before = (await store.collection<Tally>('tallies').findOne({ _id: stream }))!.count;
        const reads: string[] = [];
        const { runner, progress } = runnerOf([tallyProjection()], { store: readsCounted(store, 'tallies', reads) });
        await runner.start();
        try {
          // Each in a page of its own: the runner waits for the last to be applied before the next is appended.
          for (let i = 0; i < 3; i++) {
            const { position } = await eventStore.append(stream, [{ type: 'Counted', data: { by: 1 } }], { expectedVersion: 'any' });
            expect(await progress.waitFor(position, 10_000)).toBe(true);
          }
        } finally {
          await runner.stop();
        }
        expect(reads.filter((id) => id === stream).length).toBeLessThanOrEqual(1);
        expect((await store.collection<Tally>('tallies').findOne({ _id: stream }))!.count).toBe(before + 3);
      });

      it('answers a read by _id alone from what it last committed while it runs, a copy; from the store otherwise', async () => {
        await runToHead(tallyProjection());
        const stream = `${TALLY}6`;
        const reads: string[] = [];
        const { runner, progress } = runnerOf([tallyProjection()]);
        const tallies = readingCommitted(readsCounted(store, 'tallies', reads), runner.committed).collection<Tally>('tallies');
        const before = (await tallies.findOne({ _id: stream }))!.count;
        expect(reads).toEqual([stream]);
        await runner.start();
        try {
          const { position } = await eventStore.append(stream, [{ type: 'Counted', data: { by: 2 } }], { expectedVersion: 'any' });
          expect(await progress.waitFor(position, 10_000)).toBe(true);
          reads.length = 0;
          const answered = await tallies.findOne({ _id: stream });
          expect(answered).toEqual(await store.collection<Tally>('tallies').findOne({ _id: stream }));
          expect(answered!.count).toBe(before + 2);
          expect(reads).toEqual([]);
          // A copy: what the runner holds is not changed with it.
          answered!.count = -1;
          expect((await tallies.findOne({ _id: stream }))!.count).toBe(before + 2);
          expect(await tallies.findOne({ _id: `${TALLY}none` })).toBeNull();
          await tallies.findOne({ _id: stream }, { fields: ['count'] });
          expect(reads).toEqual([`${TALLY}none`, stream]);
        } finally {
          await runner.stop();
        }
        reads.length = 0;
        expect((await tallies.findOne({ _id: stream }))!.count).toBe(before + 2);
        expect(reads).toEqual([stream]);
      });

      it('tells how far behind the log a runner is, in events and in seconds, from its checkpoint', async () => {
        if (isolated)
          expect(await runnerLag({ eventStore, store, runnerName: 'tally-runner', cap: 1000 })).toEqual({ events: 0, seconds: 0 });
        await eventStore.append(
          `lag${TALLY}`,
          [
            { type: 'Noted', data: {} },
            { type: 'Noted', data: {} },
            { type: 'Noted', data: {} },
          ],
          { expectedVersion: 'no_stream' },
        );
        const [oldest] = await eventStore.readStream(`lag${TALLY}`);
        const lag = () =>
          runnerLag({ eventStore, store, runnerName: 'tally-runner', cap: 1000, now: new Date(oldest!.createdAt.getTime() + 90_000) });
        // Others' events may wait too on a shared KurrentDB, before and among these; on PostgreSQL, events show once
        // no writer older than them is still open on the server (other test files' may be, for a moment).
        // The horizon keeps a transaction the snapshot saw running until it is seen to have ended, so a count may
        // dip for a moment after it was whole: each count is polled.
        if (isolated) await expect.poll(lag, { timeout: 10_000 }).toEqual({ events: 3, seconds: 90 });
        else await expect.poll(async () => (await lag()).events, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
        await expect
          .poll(() => runnerLag({ eventStore, store, runnerName: 'tally-runner', cap: 2 }), { timeout: 10_000 })
          .toMatchObject({ events: 2 });
        // A runner that never ran is behind by the whole log.
        expect((await runnerLag({ eventStore, store, runnerName: 'never-ran', cap: 100_000 })).events).toBeGreaterThan(300);
        await runToHead(tallyProjection());
        if (isolated)
          expect(await runnerLag({ eventStore, store, runnerName: 'tally-runner', cap: 1000 })).toEqual({ events: 0, seconds: 0 });
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
        const { runner, progress } = runnerOf([tallyProjection()]);
        await runner.start();
        const handle = createCommandHandler({ eventStore, progress });
        try {
          const results = await Promise.all(Array.from({ length: 50 }, () => handle(decider, `${TALLY}hot`, { type: 'Count', by: 2 })));
          expect(results.every((r) => r.position !== null)).toBe(true);
          const last = await handle(decider, `${TALLY}hot`, { type: 'Count', by: 1 });
          expect(last.state.count).toBe(101);
          expect((await store.collection('tallies').findOne({ _id: `${TALLY}hot` }))?.count).toBe(101);

          const noop = await handle(decider, `${TALLY}hot`, { type: 'Count', by: 0 });
          expect(noop).toMatchObject({ events: [], position: null });

          await handle(decider, `${TALLY}hot`, { type: 'Close' });
          await expect(handle(decider, `${TALLY}hot`, { type: 'Count', by: 1 })).rejects.toMatchObject({
            code: 'rule',
            message: 'This tally is closed',
          });
          expect(await store.collection('tallies').findOne({ _id: `${TALLY}hot` })).toBeNull();
        } finally {
          await runner.stop();
        }
      });
    });
  });
}

/** The store, noting the id of each read by `_id` of one collection, in a transaction of it too. */
function readsCounted(inner: DocumentStore, name: string, reads: string[]): DocumentStore {
  const watched = <C extends object>(collection: C, collectionName: string): C =>
    collectionName !== name
      ? collection
      : new Proxy(collection, {
          get(target, key) {
            const value = Reflect.get(target, key, target) as unknown;
            if (key === 'findOne')
              return (filter: { _id?: unknown }, ...rest: unknown[]) => {
                if (typeof filter._id === 'string') reads.push(filter._id);
                return (value as (...args: unknown[]) => unknown).call(target, filter, ...rest);
              };
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
  return {
    ...inner,
    collection: (collectionName) => watched(inner.collection(collectionName), collectionName),
    ...(inner.begin
      ? {
          begin: async (options) => {
            const transaction = await inner.begin!(options);
            return { ...transaction, collection: (collectionName) => watched(transaction.collection(collectionName), collectionName) };
          },
        }
      : {}),
  };
}
