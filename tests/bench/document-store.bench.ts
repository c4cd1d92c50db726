/**
 * Document store read throughput on PostgreSQL, beside baselines measured in the
 * same run on the same rows: the query the adapter generates for
 *   find({ status, startsAt: { $gte } }, { sort: { startsAt: 1 }, limit: 20 })
 * with and without createIndex({ status: 1, startsAt: 1 }), a raw SELECT that
 * scans the table for the same rows, and a hand-written JSONB query served by an
 * equivalent hand-written expression index.
 *
 * Run: npx tsx tests/bench/document-store.bench.ts (or `npm run bench -- document-store`).
 */
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import type { Document } from '../../platform/document-store/port';
import { createTestDatabase } from '../support/database';

const DOCUMENTS = 100_000;
const BATCH = 5_000;
const SECONDS_PER_MEASURE = 3;
const CONCURRENCY = 4;
const STATUSES = ['published', 'draft', 'cancelled', 'archived'] as const;
const START = Date.UTC(2020, 0, 1);
const MINUTE = 60_000;

interface EventDocument extends Document {
  status: string;
  startsAt: Date;
  title: string;
  capacity: number;
  tags: string[];
}

/** mulberry32: a small deterministic generator, so every run measures the same data. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function makeDocument(i: number, next: () => number): EventDocument {
  return {
    _id: `event-${i.toString().padStart(6, '0')}`,
    status: STATUSES[Math.floor(next() * STATUSES.length)] ?? 'draft',
    // Distinct start times, so that a sort without a tiebreak has one right answer to compare.
    startsAt: new Date(START + ((i * 7919) % DOCUMENTS) * MINUTE),
    title: `Broadcast history evening ${i}`,
    capacity: Math.floor(next() * 200),
    tags: ['radio', i % 2 === 0 ? 'tv' : 'print'],
  };
}

/** Calls `once` from CONCURRENCY loops for a fixed time; returns calls per second. */
async function measure(once: (from: Date) => Promise<unknown>): Promise<number> {
  const next = random(7);
  const deadline = performance.now() + SECONDS_PER_MEASURE * 1000;
  let calls = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        await once(new Date(START + Math.floor(next() * DOCUMENTS * 0.9) * MINUTE));
        calls += 1;
      }
    }),
  );
  return calls / ((performance.now() - started) / 1000);
}

function format(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export async function run(): Promise<void> {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: CONCURRENCY });
  const store = createPostgresDocumentStore({ pool });
  try {
    const events = store.collection<EventDocument>('bench_events');
    const next = random(42);
    const insertStarted = performance.now();
    for (let offset = 0; offset < DOCUMENTS; offset += BATCH) {
      await events.insertMany(Array.from({ length: BATCH }, (_, i) => makeDocument(offset + i, next)));
    }
    const insertSeconds = (performance.now() - insertStarted) / 1000;
    await pool.query('ANALYZE rm_bench_events');

    const adapterQuery = (from: Date) =>
      events.find({ status: 'published', startsAt: { $gte: from } }, { sort: { startsAt: 1 }, limit: 20 });
    const rawScanSql = `SELECT doc::text FROM rm_bench_events
      WHERE doc ->> 'status' = $1 AND (doc -> 'startsAt' ->> '$date')::float8 >= $2
      ORDER BY (doc -> 'startsAt' ->> '$date')::float8 LIMIT 20`;
    const rawQuery = async (from: Date) => {
      const { rows } = await pool.query<{ doc: string }>(rawScanSql, ['published', from.getTime()]);
      return rows.map((row) => JSON.parse(row.doc) as { _id: string });
    };

    const sample = new Date(START + (DOCUMENTS / 2) * MINUTE);
    const expected = (await rawQuery(sample)).map((document) => document._id);
    const unindexed = await measure(adapterQuery);
    const rawScan = await measure(rawQuery);

    const indexStarted = performance.now();
    await events.createIndex({ status: 1, startsAt: 1 });
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    await pool.query(`CREATE INDEX bench_hand_written ON rm_bench_events ((doc ->> 'status'), ((doc -> 'startsAt' ->> '$date')::float8))`);
    await pool.query('ANALYZE rm_bench_events');

    const indexed = await measure(adapterQuery);
    const handWritten = await measure(rawQuery);

    const adapterIds = (await adapterQuery(sample)).map((document) => document._id);
    if (JSON.stringify(adapterIds) !== JSON.stringify(expected))
      throw new Error('the adapter and the raw query disagree on the sample query');
    const plan = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${rawScanSql}`, ['published', sample.getTime()]);
    const planText = plan.rows.map((row) => row['QUERY PLAN']).join('\n');

    console.log(
      `documents: ${format(DOCUMENTS)}, inserted with insertMany in batches of ${format(BATCH)} at ${format(DOCUMENTS / insertSeconds)} documents/s`,
    );
    console.log(`createIndex({ status: 1, startsAt: 1 }) on ${format(DOCUMENTS)} documents: ${indexSeconds.toFixed(2)} s`);
    console.log(
      `hand-written query with its index: ${/Index Scan using bench_hand_written/.test(planText) ? 'index scan' : `not using the index:\n${planText}`}`,
    );
    console.log(
      `query: status = 'published', startsAt >= random date, sort startsAt, limit 20; ${CONCURRENCY} concurrent callers, ${SECONDS_PER_MEASURE} s each`,
    );
    console.table({
      'adapter, no index': { 'reads/s': format(unindexed) },
      'raw SELECT scan (no index)': { 'reads/s': format(rawScan) },
      'adapter, createIndex': { 'reads/s': format(indexed) },
      'hand-written JSONB + expression index': { 'reads/s': format(handWritten) },
    });
    console.log(`adapter without index / raw scan: ${(unindexed / rawScan).toFixed(2)}x`);
    console.log(`adapter with index / raw scan: ${(indexed / rawScan).toFixed(1)}x`);
    console.log(`adapter with index / hand-written indexed query: ${(indexed / handWritten).toFixed(2)}x`);
  } finally {
    await store.close();
    await pool.end();
    await database.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
