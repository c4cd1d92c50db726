/**
 * The PostgreSQL document store keeps its pooled connections through statements the server refuses: a read of a
 * collection whose table is not made yet (a projection's first page, a fresh site) is an error the store answers
 * itself, and must not cost the server a new backend each time.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import { poolQuery } from '../../platform/pooled-connection';

let database: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 1 });
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

const backend = async () => (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

it('reads collections that have no table yet on the connection it had', async () => {
  const store = createPostgresDocumentStore({ pool });
  const before = await backend();
  expect(await store.collection('never_written').findOne({ _id: 'x' })).toBeNull();
  expect(await store.collection('never_written').find({ kind: 'y' })).toEqual([]);
  expect(await backend()).toBe(before);
});

it('gives the statement’s error to its caller, and drops a connection that broke', async () => {
  const before = await backend();
  await expect(poolQuery(pool, 'SELECT * FROM no_such_table')).rejects.toMatchObject({ code: '42P01' });
  expect(await backend()).toBe(before);
  await expect(poolQuery(pool, 'SELECT pg_terminate_backend(pg_backend_pid())')).rejects.toThrow();
  expect(await backend()).not.toBe(before);
});
