/**
 * A kill -9 of the projections role in the middle of a replay of a large log: the role (`main/main.ts`,
 * ROLES=projections) runs in a child process over a believable community history of 50,000 events, is killed
 * with -9 four times as its checkpoint passes each fifth of the log, and started again each time; once it has caught
 * up, every read-model collection must be identical, document for document, to what a clean rebuild
 * (`scripts/rebuild-projections.ts`: drop and replay) makes of the same log. No field is excluded: the read
 * models hold nothing that depends on when an event was processed, only on the events themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from '../support/database';
import { childProcesses, stop } from '../support/processes';
import { appendCommunityHistory, type CommunityHistory } from '../support/community-history';
import { createPostgresEventStore } from '../../platform/event-store/postgres';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import type { EventStore } from '../../platform/event-store/port';
import type { Document, DocumentStore } from '../../platform/document-store/port';
import { CHECKPOINTS, type Checkpoint } from '../../platform/projections/progress';
import { allProjections } from '../../projections';

/**
 * Enough for four kills each in the middle of a long replay, with every read model filled: the same proof as
 * 100,000 gave, in half the CI time (with media, member activity and erasure among the projections, a replay of
 * 100,000 took a quarter of an hour, twice over).
 */
const EVENTS = 50_000;
const READ_MODELS = [...new Set(allProjections.flatMap((projection) => projection.collections))].sort();

let database: TestDatabase;
let pool: pg.Pool;
let eventStore: EventStore;
let store: DocumentStore;
let history: CommunityHistory;
const processes = childProcesses();

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url });
  eventStore = await createPostgresEventStore({ pool });
  store = createPostgresDocumentStore({ pool });
  const started = performance.now();
  history = await appendCommunityHistory(eventStore, { events: EVENTS });
  console.log(`${history.events} events appended in ${history.appends} appends, ${((performance.now() - started) / 1000).toFixed(1)} s`);
}, 300_000);

afterAll(async () => {
  await processes.stopAll();
  await eventStore?.close();
  await store?.close();
  await pool?.end();
  await database?.drop();
});

const roleEnv = () => ({
  NODE_ENV: 'test',
  DATABASE_URL: database.url,
  REDIS_PREFIX: testRedisPrefix(),
  SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
  LOG_LEVEL: 'warn',
  // Pages of 10,000 events (the default is 50,000): the checkpoint moves five times in this log, so each kill comes
  // after one page and before the end.
  PROJECTION_PAGE_EVENTS: '10000',
});

const checkpoint = async () => (await store.collection<Checkpoint>(CHECKPOINTS).findOne({ _id: 'read-models' }))?.position ?? 0;

async function snapshot(): Promise<Map<string, Document[]>> {
  const collections = new Map<string, Document[]>();
  for (const name of READ_MODELS) collections.set(name, await store.collection(name).find({}, { sort: { _id: 1 } }));
  return collections;
}

/** The first few documents that differ, per collection, so a failure says where rather than printing 50,000 documents. */
function differences(actual: Map<string, Document[]>, expected: Map<string, Document[]>) {
  const found: { collection: string; _id: string; actual: Document | undefined; expected: Document | undefined }[] = [];
  for (const name of READ_MODELS) {
    const byId = new Map(actual.get(name)!.map((document) => [document._id, document]));
    const expectedIds = new Set<string>();
    for (const document of expected.get(name)!) {
      expectedIds.add(document._id);
      if (JSON.stringify(byId.get(document._id)) !== JSON.stringify(document))
        found.push({ collection: name, _id: document._id, actual: byId.get(document._id), expected: document });
    }
    for (const document of actual.get(name)!)
      if (!expectedIds.has(document._id)) found.push({ collection: name, _id: document._id, actual: document, expected: undefined });
  }
  return { count: found.length, first: found.slice(0, 5) };
}

describe('the projections role killed with -9 mid-replay', () => {
  it('catches up after a restart to read models identical to a clean rebuild', async () => {
    const started = performance.now();
    const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
    const env = roleEnv();

    // Killed four times, each time once the checkpoint has passed the next share of the log and moved since the last
    // kill: each kill interrupts the page in flight somewhere among its writes. The last share leaves more than a page
    // (at most 10,000 events) after it, so the last kill still comes before the end.
    let previous = 0;
    for (const share of [0.15, 0.35, 0.55, 0.7]) {
      const role = processes.start('main/main.ts', { ...env, ROLES: 'projections' });
      await processes.until(
        async () => (await checkpoint()) >= Math.max(history.head * share, previous + 1),
        1_200_000,
        `the replay to pass ${share * 100}% of the log`,
      );
      await stop(role, 'SIGKILL');
      const killedAt = await checkpoint();
      expect(killedAt).toBeGreaterThan(previous);
      expect(killedAt).toBeLessThan(history.head);
      previous = killedAt;
      console.log(`killed at position ${killedAt} of ${history.head} after ${seconds()} s`);
    }

    processes.start('main/main.ts', { ...env, ROLES: 'projections' });
    await processes.until(async () => (await checkpoint()) === history.head, 1_200_000, 'the restarted role to catch up');
    await processes.stopAll('SIGTERM');
    const resumed = await snapshot();
    console.log(`caught up after ${seconds()} s`);

    const rebuild = processes.start('scripts/rebuild-projections.ts', env);
    await new Promise((resolve) => rebuild.once('exit', resolve));
    expect(rebuild.exitCode, processes.logs.join('')).toBe(0);
    const rebuilt = await snapshot();
    console.log(`rebuilt after ${seconds()} s`);

    for (const name of READ_MODELS) expect(rebuilt.get(name)!.length, `documents in ${name}`).toBeGreaterThan(0);
    expect(differences(resumed, rebuilt)).toEqual({ count: 0, first: [] });
  }, 3_600_000);
});
