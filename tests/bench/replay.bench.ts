/**
 * A cold replay of the community's history into every read model (docs/architecture.md#the-read-side): the log of
 * tests/support/community-history.ts, REPLAY_EVENTS events (100,000 by default: ten times the history the fault tests
 * use), replayed by the projection runner into empty read models, beside a raw scan of the same log through the
 * sealing store (what the runner must read whatever it does) in the same run. Throughput, not latency: no open loop.
 */
import pg from 'pg';
import { createTestDatabase } from '../support/database';
import { appendCommunityHistory } from '../support/community-history';
import { createPostgresEventStore } from '../../platform/event-store/postgres';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import { createPersonalDataKeys } from '../../platform/personal-data/keys';
import { sealPersonalData } from '../../platform/personal-data/sealed-event-store';
import { createProjectionProgress } from '../../platform/projections/progress';
import { createProjectionRunner } from '../../platform/projections/runner';
import { allProjections } from '../../projections';
import type { EventStore } from '../../platform/event-store/port';
import { printTable, rate } from './report';

const EVENTS = Number(process.env.REPLAY_EVENTS ?? 100_000);
const silent = { info: () => undefined, error: (fields: unknown, message?: string) => console.error(message, fields) };

async function scan(store: EventStore, to: number) {
  const controller = new AbortController();
  for await (const event of store.subscribeToAll({ after: 0, signal: controller.signal })) if (event.position >= to) controller.abort();
}

export async function run() {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 10 });
  try {
    const raw = await createPostgresEventStore({ pool });
    const store = createPostgresDocumentStore({ pool });
    const eventStore = sealPersonalData(raw, createPersonalDataKeys(store));
    const appendStarted = performance.now();
    await appendCommunityHistory(eventStore, { events: EVENTS, days: 365 });
    const head = await raw.headPosition();
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    const events = rows[0]!.n;
    console.log(`appended ${events} events of community history in ${((performance.now() - appendStarted) / 1000).toFixed(1)} s`);

    // Each from a fresh key cache, as a rebuild in a new process has.
    const scanRate = await rate(events, () => scan(sealPersonalData(raw, createPersonalDataKeys(store)), head));
    const progress = createProjectionProgress({ store, runnerName: 'replay', local: true });
    const runner = createProjectionRunner({
      name: 'replay',
      eventStore: sealPersonalData(raw, createPersonalDataKeys(store)),
      store,
      projections: allProjections,
      progress,
      logger: silent,
    });
    const replayRate = await rate(events, async () => {
      await runner.start();
      if (!(await progress.waitFor(head, 3_600_000))) throw new Error('the replay did not reach the head');
      await runner.stop();
    });
    if (runner.failure()) throw new Error(`a projection failed: ${JSON.stringify(runner.failure())}`);
    printTable([
      {
        figure: `cold replay of ${events} events into every read model`,
        value: replayRate,
        unit: 'events/s',
        baseline: 'a scan of the same log (unsealed on read)',
        baselineValue: scanRate,
      },
    ]);
  } finally {
    await pool.end();
    await database.drop();
  }
}
