/**
 * The read side while the site serves (docs/architecture.md#the-read-side): every read model rebuilt beside the live
 * ones and switched in one step, with no answer degraded meanwhile and a write made during the rebuild kept; one
 * projection rebuilt alone; `projections:status`; a projection that throws stopping alone; lost connections healing.
 * One site, over a community history, for the whole file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { startTestSite, UNLIMITED_RATES, type TestSite, steadyHead } from '../support/site';
import { registerMember } from '../support/http';
import { appendCommunityHistory } from '../support/community-history';
import { childProcesses } from '../support/processes';
import { createTestDatabase } from '../support/database';
import { allProjections } from '../../projections';
import {
  CHECKPOINTS,
  createProjectionProgress,
  REBUILDS,
  type ProjectionCheckpoint,
  type RebuildRequest,
} from '../../platform/projections/progress';
import { createProjectionRunner, type Projection } from '../../platform/projections/runner';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import { createPostgresEventStore } from '../../platform/event-store/postgres';
import type { EventStore, RecordedEvent } from '../../platform/event-store/port';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import { projectionStatuses } from '../../platform/projections/status';
import { ROOMS, type ChangeNotice } from '../../shared/socket-messages';

const run = promisify(execFile);
const READ_MODELS = [...new Set(allProjections.flatMap((projection) => projection.collections))].sort();
const silent = { info: () => undefined, error: () => undefined };

let site: TestSite;
/** A member who signs up after the history (its first member is the founder). */
let member: Awaited<ReturnType<typeof registerMember>>;
const processes = childProcesses();

const siteEnv = () => ({
  NODE_ENV: 'test',
  DATABASE_URL: site.services.config.databaseUrl,
  REDIS_PREFIX: site.services.config.redisPrefix,
  SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
  LOG_LEVEL: 'warn',
});

async function counts() {
  return Object.fromEntries(
    await Promise.all(READ_MODELS.map(async (name) => [name, await site.services.store.collection(name).countDocuments()] as const)),
  );
}

const checkpoint = (name: string) => site.services.store.collection<ProjectionCheckpoint>(CHECKPOINTS).findOne({ _id: name });

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  const history = await appendCommunityHistory(site.services.eventStore, { events: 4_000 });
  if (!(await site.services.progress.waitFor(history.head, 120_000))) throw new Error('the site did not catch up with the history');
  member = await registerMember(site.url);
}, 300_000);

afterAll(async () => {
  await processes.stopAll();
  await site?.close();
});

describe('npm run projections:rebuild while the site serves', () => {
  it('rebuilds every read model beside the live ones: no answer degraded meanwhile, and a write made during it kept', async () => {
    const before = await counts();
    const feedBefore = await member.browser.get('/api/posts');
    expect(feedBefore.status).toBe(200);
    const rebuild = processes.start('scripts/rebuild-projections.ts', siteEnv());
    const exited = new Promise<number | null>((resolve) => rebuild.once('exit', resolve));
    let finished = false;
    void exited.then(() => (finished = true));

    // Watches every read model and the feed's answer until the rebuild ends: nothing may shrink or go missing.
    const degraded: string[] = [];
    let rounds = 0;
    let written: string | null = null;
    while (!finished) {
      const now = await counts();
      for (const name of READ_MODELS)
        if (now[name]! < before[name]!) degraded.push(`${name}: ${now[name]} documents, ${before[name]} before`);
      const feed = await member.browser.get('/api/posts');
      const ids = (feed.body.items as { id: string }[]).map((post) => post.id);
      const expected = (feedBefore.body.items as { id: string }[]).map((post) => post.id);
      if (feed.status !== 200 || !expected.every((id) => ids.includes(id) || (written && ids.includes(written))))
        degraded.push(`the feed answered ${feed.status} with ${ids.length} posts`);
      rounds++;
      // A write while the new read models are being built: once the rebuild has begun.
      if (!written && (await site.services.store.listCollections()).some((name) => name.endsWith('__rebuild'))) {
        const posted = await member.browser.post('/api/posts', { content: 'Posted while the read models were rebuilt' });
        expect(posted.status).toBe(201);
        expect(posted.body.content).toBe('Posted while the read models were rebuilt');
        written = posted.body.id as string;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await exited, processes.logs.join('')).toBe(0);
    expect(degraded).toEqual([]);
    expect(rounds).toBeGreaterThan(3);
    expect(written).not.toBeNull();

    // The new read models serve, with the write in them, and nothing of the rebuild is left beside them.
    const after = await member.browser.get('/api/posts');
    expect((after.body.items as { id: string }[]).map((post) => post.id)).toContain(written);
    expect(await site.services.store.collection('feed_posts').findOne({ _id: written! })).toMatchObject({
      content: 'Posted while the read models were rebuilt',
    });
    expect((await site.services.store.listCollections()).filter((name) => name.endsWith('__rebuild'))).toEqual([]);
    for (const projection of allProjections)
      expect(await checkpoint(projection.name), projection.name).toMatchObject({ rebuiltAt: expect.any(String), failed: null });
  }, 300_000);

  it('rebuilds one projection alone with --only, leaving the others as they are', async () => {
    const others = await Promise.all(
      allProjections.filter((projection) => projection.name !== 'feed').map((projection) => checkpoint(projection.name)),
    );
    const feedBefore = await checkpoint('feed');
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/rebuild-projections.ts', '--only', 'feed'], {
      env: { ...process.env, ...siteEnv() },
    });
    expect(stderr + stdout).not.toContain('failed');
    expect((await checkpoint('feed'))!.rebuiltAt! > feedBefore!.rebuiltAt!).toBe(true);
    for (const previous of others) expect((await checkpoint(previous!._id))?.rebuiltAt).toBe(previous!.rebuiltAt);
  }, 120_000);

  it('refuses a projection it does not know, naming those it does', async () => {
    const refused = await run(process.execPath, ['--import', 'tsx', 'scripts/rebuild-projections.ts', '--only', 'no-such-projection'], {
      env: { ...process.env, ...siteEnv() },
    }).catch((error: { code: number; stdout: string }) => error);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stdout: string }).stdout).toContain('No such projection: no-such-projection');
  }, 60_000);
});

describe('npm run projections:status', () => {
  it('prints every projection with its position, lag and state, as JSON with --json', async () => {
    type Status = { name: string; position: number; lag: number; state: string };
    const statusNow = async () =>
      JSON.parse(
        (await run('npm', ['run', '-s', 'projections:status', '--', '--json'], { env: { ...process.env, ...siteEnv() } })).stdout,
      ) as Status[];
    // A projection that a page left untouched stores its checkpoint within the second (the runner's housekeeping).
    // Each status is a process of its own (npm, then tsx compiling the services): 5–10 s apiece on a busy machine.
    let statuses: Status[] = [];
    await expect
      .poll(
        async () => {
          statuses = await statusNow();
          return statuses.filter((one) => one.lag > 0).map((one) => one.name);
        },
        { timeout: 60_000, interval: 500 },
      )
      .toEqual([]);
    const head = await steadyHead(site.services.eventStore);
    for (const projection of allProjections) {
      const status = statuses.find((one) => one.name === projection.name);
      expect(status, projection.name).toMatchObject({ state: 'running', lag: 0 });
      expect(Object.keys(status!).sort()).toEqual(['lag', 'name', 'position', 'state']);
      expect(status!.position).toBeLessThanOrEqual(head);
    }
    expect(statuses.map((one) => one.name)).toContain('mail-reactor');
    const table = await run('npm', ['run', '-s', 'projections:status'], { env: { ...process.env, ...siteEnv() } });
    expect(table.stdout).toMatch(/^projection\s+runner\s+version\s+position\s+lag\s+state/);
    expect(table.stdout).toMatch(/\nfeed\s+read-models\s+\d+\s+\d+\s+0\s+running/);
  }, 120_000);
});

type Tally = Positioned & { _id: string; count: number };

/** Counts the events of each stream whose name starts with `prefix`; `failOn`: a bug on that event, every time. */
function counter(name: string, prefix: string, failOn?: () => number | undefined): Projection {
  return {
    name,
    version: 1,
    collections: [`${name.replaceAll('-', '_')}_counts`],
    async apply(event, { store }) {
      if (!event.streamName.startsWith(prefix)) return;
      if (event.position === failOn?.()) throw new Error(`cannot count ${event.streamName}`);
      await applyToDocument(
        store.collection<Tally>(`${name.replaceAll('-', '_')}_counts`),
        event.streamName,
        event.position,
        (current) => ({ count: (current?.count ?? 0) + 1 }),
      );
    },
  };
}

/** A log of its own in a new database: `streams` tally streams of `each` Counted events, for a runner of the test's. */
async function withTallies(
  streams: number,
  each: number,
  work: (stores: { eventStore: EventStore; store: ReturnType<typeof createPostgresDocumentStore> }) => Promise<void>,
) {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url });
  try {
    const eventStore = await createPostgresEventStore({ pool });
    for (let batch = 0; batch < streams; batch++)
      await eventStore.append(
        `tally-${batch}`,
        Array.from({ length: each }, () => ({ type: 'Counted', data: {} })),
        { expectedVersion: 'no_stream' },
      );
    await work({ eventStore, store: createPostgresDocumentStore({ pool }) });
  } finally {
    await pool.end();
    await database.drop();
  }
}

describe('a rebuild in the runner', () => {
  it('finishes when the log ends exactly where a page does, with nothing appended after', async () => {
    // 2,000 events: one whole read of the PostgreSQL adapter (its BATCH), then nothing more.
    await withTallies(20, 100, async ({ eventStore, store }) => {
      const progress = createProjectionProgress({ store, runnerName: 'exact', local: true });
      const runner = createProjectionRunner({
        name: 'exact',
        eventStore,
        store,
        projections: [counter('exact', 'tally-')],
        progress,
        logger: silent,
      });
      await runner.start();
      expect(await progress.waitFor(await steadyHead(eventStore), 20_000)).toBe(true);
      await store
        .collection<RebuildRequest>(REBUILDS)
        .insertOne({ _id: 'exact', runner: 'exact', requestedAt: new Date().toISOString(), failed: null });
      await expect
        .poll(async () => (await store.collection<ProjectionCheckpoint>(CHECKPOINTS).findOne({ _id: 'exact' }))?.rebuiltAt, {
          timeout: 20_000,
        })
        .toEqual(expect.any(String));
      await runner.stop();
      const tallies = await store.collection<Tally>('exact_counts').find({});
      expect(tallies).toHaveLength(20);
      expect(tallies.every((tally) => tally.count === 100)).toBe(true);
      expect(await store.collection(REBUILDS).countDocuments()).toBe(0);
    });
  });
});

describe('pages', () => {
  it('applies history in whole pages however slowly the adapter reads, and a live event in a page of its own', async () => {
    // 25,000 events of history: two whole pages (of at most 10,000 events here) and the rest.
    await withTallies(50, 500, async ({ eventStore, store }) => {
      // Reads that take time: 20 ms every 500 events, longer than a page waits for an event it does not know is there.
      const slowReads: EventStore = {
        ...eventStore,
        async *subscribeToAll(options) {
          let read = 0;
          for await (const event of eventStore.subscribeToAll(options)) {
            if (++read % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
            yield event;
          }
        },
      };
      /** Events applied per page: a page is one ProjectionContext.store. */
      const pages = new Map<object, number>();
      const counting = counter('paged', 'tally-');
      const progress = createProjectionProgress({ store, runnerName: 'paged', local: true });
      const runner = createProjectionRunner({
        name: 'paged',
        eventStore: slowReads,
        store,
        projections: [
          {
            ...counting,
            apply(event, context) {
              pages.set(context.store, (pages.get(context.store) ?? 0) + 1);
              return counting.apply(event, context);
            },
          },
        ],
        progress,
        logger: silent,
        pageEvents: 10_000,
      });
      await runner.start();
      try {
        expect(await progress.waitFor(await steadyHead(eventStore), 60_000)).toBe(true);
        expect([...pages.values()]).toEqual([10_000, 10_000, 5_000]);
        await eventStore.append('tally-live', [{ type: 'Counted', data: {} }], { expectedVersion: 'no_stream' });
        expect(await progress.waitFor(await steadyHead(eventStore), 20_000)).toBe(true);
        expect([...pages.values()]).toEqual([10_000, 10_000, 5_000, 1]);
      } finally {
        await runner.stop();
      }
      const tallies = await store.collection<Tally>('paged_counts').find({});
      expect(tallies).toHaveLength(51);
      expect(tallies.filter((tally) => tally.count === 500)).toHaveLength(50);
    });
  });

  it('tells each change notice of a live page once: a notice that says the same again is not sent', async () => {
    await withTallies(1, 1, async ({ eventStore, store }) => {
      const counting = counter('told', 'tally-');
      const pages = new Map<object, number>();
      const told: ChangeNotice[] = [];
      const progress = createProjectionProgress({ store, runnerName: 'told', local: true });
      const runner = createProjectionRunner({
        name: 'told',
        eventStore,
        store,
        projections: [
          {
            ...counting,
            apply(event, context) {
              pages.set(context.store, (pages.get(context.store) ?? 0) + 1);
              context.notify({ message: 'stats:changed', rooms: [ROOMS.members], payload: {} });
              context.notify({ message: 'posts:changed', rooms: [ROOMS.public], payload: { id: event.id, kind: 'updated' } });
              return counting.apply(event, context);
            },
          },
        ],
        progress,
        publish: (notice) => told.push(notice),
        logger: silent,
      });
      await runner.start();
      try {
        expect(await progress.waitFor(await steadyHead(eventStore), 20_000)).toBe(true);
        // Three events in one append: one live page.
        await eventStore.append(
          'tally-live',
          [1, 2, 3].map(() => ({ type: 'Counted', data: {} })),
          { expectedVersion: 'no_stream' },
        );
        expect(await progress.waitFor(await steadyHead(eventStore), 20_000)).toBe(true);
      } finally {
        await runner.stop();
      }
      expect([...pages.values()]).toEqual([1, 3]);
      // Once per page: the next page says it again.
      const stats = { message: 'stats:changed', rooms: [ROOMS.members], payload: {} };
      const post = (event: RecordedEvent) => ({
        message: 'posts:changed',
        rooms: [ROOMS.public],
        payload: { id: event.id, kind: 'updated' },
      });
      expect(told).toEqual([
        stats,
        ...(await eventStore.readStream('tally-0')).map(post),
        stats,
        ...(await eventStore.readStream('tally-live')).map(post),
      ]);
    });
  });
});

describe('failures', () => {
  it('stops a projection that throws on an event alone, visibly; the others go on', async () => {
    const database = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: database.url });
    try {
      const eventStore = await createPostgresEventStore({ pool });
      const store = createPostgresDocumentStore({ pool });
      for (let i = 0; i < 60; i++) await eventStore.append(`tally-${i % 6}`, [{ type: 'Counted', data: {} }], { expectedVersion: 'any' });
      const failing = (await eventStore.readStream('tally-2'))[4]!.position;
      const progress = createProjectionProgress({ store, runnerName: 'pair', local: true });
      const runner = createProjectionRunner({
        name: 'pair',
        eventStore,
        store,
        projections: [counter('buggy', 'tally-', () => failing), counter('sound', 'tally-')],
        progress,
        logger: silent,
      });
      await runner.start();
      const head = await eventStore.headPosition();
      // Read-your-writes waits for the projections that run, not for one that stopped.
      expect(await progress.waitFor(head, 10_000)).toBe(true);
      let last = 0;
      for (let i = 0; i < 6; i++)
        last = (await eventStore.append(`tally-${i}`, [{ type: 'Counted', data: {} }], { expectedVersion: 'any' })).position;
      expect(await progress.waitFor(last, 10_000)).toBe(true);
      await runner.stop();

      expect(runner.failures()).toEqual([{ position: failing, projection: 'buggy', error: 'Error: cannot count tally-2' }]);
      expect(await store.collection<Tally>('sound_counts').findOne({ _id: 'tally-2' })).toMatchObject({ count: 11 });
      expect(await store.collection<Tally>('buggy_counts').findOne({ _id: 'tally-2' })).toMatchObject({ count: 4 });
      const statuses = await projectionStatuses({ store, eventStore, runners: [{ name: 'pair', projections: ['buggy', 'sound'] }] });
      expect(statuses.find((status) => status.name === 'buggy')).toMatchObject({
        state: 'failed',
        error: `stopped at ${failing}: Error: cannot count tally-2`,
      });
      expect(statuses.find((status) => status.name === 'sound')).toMatchObject({ lag: 0 });
    } finally {
      await pool.end();
      await database.drop();
    }
  });

  it('says on /readyz which projection stopped', async () => {
    const checkpoints = site.services.store.collection<ProjectionCheckpoint>(CHECKPOINTS);
    const saved = (await checkpoints.findOne({ _id: 'bookmarks' }))!;
    await checkpoints.updateOne(
      { _id: 'bookmarks' },
      { $set: { failed: { position: saved.position + 1, projection: 'bookmarks', error: 'Error: a bug' } } },
    );
    try {
      const ready = await fetch(new URL('/readyz', site.url));
      expect(ready.status).toBe(503);
      expect((await ready.json()).checks.projections).toBe(`stopped: bookmarks at ${saved.position + 1}`);
    } finally {
      await checkpoints.updateOne({ _id: 'bookmarks' }, { $set: { failed: null } });
    }
    expect((await fetch(new URL('/readyz', site.url))).status).toBe(200);
  });

  it('heals when its connections are killed in the middle of a page, applying every event once', async () => {
    const database = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: database.url });
    // Idle connections that are cut say so here; the pool makes new ones.
    pool.on('error', () => undefined);
    const killer = new pg.Client({ connectionString: database.url });
    await killer.connect();
    const cutEverything = () =>
      killer.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    try {
      const eventStore = await createPostgresEventStore({ pool });
      const store = createPostgresDocumentStore({ pool });
      // The page of the event on `held-1` waits inside its open transaction until the test has cut the connections.
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const counting = counter('healed', 'tally-');
      const holdingOnce: Projection = {
        ...counting,
        async apply(event, context) {
          if (event.streamName === 'held-1') {
            await context.store.collection('healed_counts').countDocuments();
            holding();
            await released;
          }
          await counting.apply(event, context);
        },
      };
      const progress = createProjectionProgress({ store, runnerName: 'healing', local: true });
      const logged: string[] = [];
      const runner = createProjectionRunner({
        name: 'healing',
        eventStore,
        store,
        projections: [holdingOnce],
        progress,
        logger: { info: () => undefined, error: (_fields: unknown, message?: string) => void logged.push(String(message)) },
        resubscribeDelay: () => 50,
      });
      await runner.start();
      for (let i = 0; i < 6; i++) await eventStore.append(`tally-${i}`, [{ type: 'Counted', data: {} }], { expectedVersion: 'any' });
      await eventStore.append('held-1', [{ type: 'Held', data: {} }], { expectedVersion: 'no_stream' });
      await held;
      // Every connection (the page's transaction, the subscription's listener, the idle ones) is cut, as a restarting server does.
      await cutEverything();
      release();
      // Appends on this test's own cut connections are tried once more (a cut connection sends nothing).
      const count = (i: number) => eventStore.append(`tally-${i}`, [{ type: 'Counted', data: {} }], { expectedVersion: 'any' });
      let last = 0;
      for (let round = 0; round < 4; round++) {
        for (let i = 0; i < 6; i++) last = (await count(i).catch(() => count(i))).position;
        await cutEverything();
      }
      expect(await progress.waitFor(last, 20_000), logged.join('\n')).toBe(true);
      await runner.stop();
      expect(runner.failures()).toEqual([]);
      const tallies = await store.collection<Tally>('healed_counts').find({}, { sort: { _id: 1 } });
      expect(tallies.map((tally) => tally.count)).toEqual([5, 5, 5, 5, 5, 5]);
      expect(logged.some((line) => line.includes('Projection healed could not apply a page'))).toBe(true);
    } finally {
      await killer.end();
      await pool.end();
      await database.drop();
    }
  });
});
