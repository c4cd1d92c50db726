/**
 * The document store on PostgreSQL: one table per collection (`rm_<name>`, with
 * `id text primary key, doc jsonb`), filters translated to SQL/JSON path
 * expressions that follow MongoDB's rules exactly, updates applied in TypeScript
 * on rows locked with SELECT ... FOR UPDATE.
 *
 * Encoding: a Date is stored as {"$date": <epoch ms>} (field names never start
 * with $, so this cannot be confused with data) and compared as a number.
 *
 * Sorting and indexes use rm_key(value): an order-preserving text key with
 * MongoDB's type brackets (1 null/missing, 2 numbers as order-preserving IEEE bits,
 * 3 strings by code point, 5 booleans, 6 dates) compared with COLLATE "C". It
 * raises (SQLSTATE RMK01) on arrays and embedded documents, so sorting by them is
 * an error rather than a different order, and a path covered by an index is
 * guaranteed to hold a single scalar in every row. Conditions on such paths are
 * therefore written as key comparisons the btree index can serve (including
 * ORDER BY ... LIMIT); every other path goes through jsonb_path_exists.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { checkOut, poolQuery } from '../pooled-connection';
import { DuplicateKeyError, UnsupportedQueryError } from './port';
import type { Collection, Document, DocumentStore, Transaction } from './port';
import type { Filter, FindOptions, IndexKeys, IndexOptions, Sort, PositionedChanges, Update, UpdateResult } from './port';
import { applyUpdate, buildUpsert, UpdateNotApplicableError, valuesEqual } from './semantics';
// The query subset both adapters keep to (parsing, checks, paths): subset.parseFilter and the like.
import * as subset from './subset';
import type { Condition, Operand, ParsedFindOptions, Path, Predicate, UpdateOperation } from './subset';

type Queryable = pg.Pool | pg.PoolClient;

/**
 * Where a collection's statements go: the pool (each statement on its own, `atomically` in a transaction of its own),
 * or one connection inside an open transaction (`atomically` in a savepoint, so a refused statement, a duplicate key
 * say, does not abort the enclosing transaction).
 */
interface Db {
  query: Queryable['query'];
  atomically<R>(work: (client: Queryable) => Promise<R>): Promise<R>;
  /** Whether statements run inside a transaction that this process will commit later. */
  inTransaction: boolean;
  /**
   * Inside a transaction: keeps a statement (its values inlined) to be sent with the next one, or with the COMMIT, in
   * one message. savePositioned's writes wait so: a page's writes, checkpoint and commit take one round trip.
   */
  defer?: (statement: string) => void;
}

function poolDb(pool: pg.Pool): Db {
  return {
    query: ((text: string, values?: unknown[]) => poolQuery(pool, text, values)) as Queryable['query'],
    atomically: (work) => transaction(pool, work),
    inTransaction: false,
  };
}

/**
 * A transaction on one connection. With `deferred`, its BEGIN and the statements deferred since are sent with the
 * first statement that needs an answer (`deferred.send`), or with the COMMIT.
 */
function transactionDb(client: pg.PoolClient, deferred?: Deferred): Db {
  let savepoints = 0;
  const query = client.query.bind(client) as Queryable['query'];
  return {
    query: (deferred
      ? async (...args: unknown[]) => {
          await deferred.send();
          return (query as (...args: unknown[]) => Promise<unknown>)(...args);
        }
      : query) as Queryable['query'],
    ...(deferred ? { defer: (statement: string) => deferred.statements.push(statement) } : {}),
    async atomically(work) {
      await deferred?.send();
      const name = `rm_sp_${++savepoints}`;
      await client.query(`SAVEPOINT ${name}`);
      try {
        const result = await work(client);
        await client.query(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        await client.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    },
    inTransaction: true,
  };
}

/** What a process knows of one collection's table, shared by its pool and transaction views. */
interface TableState {
  created: boolean;
  indexes: IndexMeta[] | null;
}

const TABLE_PREFIX = 'rm_';
const KEY_ERROR = 'RMK01';
const UPSERT_ATTEMPTS = 3;

// Indexes store rm_key's output: a change to the encoding below needs a REINDEX of the rm_ tables.
const FUNCTIONS = `
CREATE OR REPLACE FUNCTION rm_unsortable(v jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = '${KEY_ERROR}', MESSAGE = 'an array or embedded document where a sortable value is required: ' || left(v::text, 100);
END $$;
CREATE OR REPLACE FUNCTION rm_unsortable_step(v jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = '${KEY_ERROR}', MESSAGE = 'an array on the way to a sort or index field: ' || left(v::text, 100);
END $$;
CREATE OR REPLACE FUNCTION rm_number_key(x float8) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x < 0 THEN '0' || translate(encode(float8send(-x), 'hex'), '0123456789abcdef', 'fedcba9876543210')
    ELSE '1' || encode(float8send(x + 0.0), 'hex') END
$$;
CREATE OR REPLACE FUNCTION rm_key(v jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE jsonb_typeof(v)
    WHEN 'string' THEN '3' || (v #>> '{}')
    WHEN 'number' THEN '2' || rm_number_key(v::float8)
    WHEN 'boolean' THEN CASE WHEN v::boolean THEN '51' ELSE '50' END
    WHEN 'object' THEN CASE WHEN v ? '$date' THEN '6' || rm_number_key((v -> '$date')::float8) ELSE rm_unsortable(v) END
    WHEN 'array' THEN rm_unsortable(v)
    ELSE '1'
  END
$$;
CREATE OR REPLACE FUNCTION rm_step(v jsonb, k text) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(v) = 'array' THEN rm_unsortable_step(v) ELSE v -> k END
$$;
`;

export type PostgresDocumentStoreOptions = { pool: pg.Pool } | { connectionString: string };

export function createPostgresDocumentStore(options: PostgresDocumentStoreOptions): DocumentStore {
  const ownsPool = !('pool' in options);
  const pool = 'pool' in options ? options.pool : new pg.Pool({ connectionString: options.connectionString });
  let installed: Promise<void> | null = null;
  const install = (): Promise<void> => {
    installed ??= transaction(pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('rm_functions'))`);
      await client.query(FUNCTIONS);
    }).catch((error: unknown) => {
      installed = null;
      throw error;
    });
    return installed;
  };
  const tables = new Map<string, TableState>();
  const stateOf = (name: string) => {
    let state = tables.get(name);
    if (!state) tables.set(name, (state = { created: false, indexes: null }));
    return state;
  };
  const shared = poolDb(pool);
  const collections = new Map<string, PostgresCollection<Document>>();

  function view(db: Db, cache: Map<string, PostgresCollection<Document>>) {
    return <T extends Document = Document>(name: string): Collection<T> => {
      const checked = subset.parseCollectionName(name);
      let collection = cache.get(checked);
      if (!collection) {
        collection = new PostgresCollection(db, shared, checked, install, stateOf(checked));
        cache.set(checked, collection);
      }
      return collection as unknown as Collection<T>;
    };
  }

  async function replaceCollection(db: Db, from: string, to: string) {
    const source = subset.parseCollectionName(from);
    const target = subset.parseCollectionName(to);
    await install();
    // A collection nothing was written to has no table yet: it takes the place as an empty one.
    await db.query(`CREATE TABLE IF NOT EXISTS ${tableOf(source)} (id text COLLATE "C" PRIMARY KEY, doc jsonb NOT NULL)`);
    await db.query(`DROP TABLE IF EXISTS ${tableOf(target)}`);
    await db.query(`ALTER TABLE ${tableOf(source)} RENAME TO ${quoteIdent(TABLE_PREFIX + target)}`);
    // Index names are made from the table's name: renamed with it, so that a new collection of the old name can have its own.
    const { rows } = await db.query<{ index: string; meta: string | null }>(
      `SELECT indexrelid::regclass::text AS index, obj_description(indexrelid, 'pg_class') AS meta FROM pg_index WHERE indrelid = to_regclass($1)`,
      [tableOf(target)],
    );
    for (const row of rows) {
      if (!row.meta) continue;
      const meta = JSON.parse(row.meta) as IndexMeta;
      await db.query(`ALTER INDEX ${row.index} RENAME TO ${indexNameOf(tableOf(target), meta.name)}`);
    }
    stateOf(source).created = false;
    stateOf(source).indexes = null;
    stateOf(target).created = true;
    stateOf(target).indexes = null;
  }

  return {
    collection: view(shared, collections),
    async listCollections() {
      const { rows } = await pool.query<{ name: string }>(
        `SELECT substr(c.relname, ${TABLE_PREFIX.length + 1}) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema() AND c.relname LIKE 'rm\\_%' ORDER BY 1`,
      );
      return rows.map((row) => row.name);
    },
    replaceCollection: (from: string, to: string) =>
      transaction(pool, (client) => replaceCollection(transactionDb(client as pg.PoolClient), from, to)),
    /**
     * The BEGIN goes with the transaction's first statement, and savePositioned's writes with the statement after them
     * or with the COMMIT: a transaction that only writes so (a projection's page in a replay) is one round trip, and
     * one that does nothing is none. A deferred write that fails makes that statement, or the commit, fail.
     */
    async begin(options?: { durable?: boolean }): Promise<Transaction> {
      await install();
      const client = await checkOut(pool);
      let open = true;
      let begun = false;
      const opening = options?.durable === false ? 'BEGIN; SET LOCAL synchronous_commit TO off' : 'BEGIN';
      /** BEGIN (the first time) and the statements deferred since, as one message; then `last`, if given. */
      const pending = (last?: string) => {
        const statements = [...(begun ? [] : [opening]), ...deferred.statements, ...(last ? [last] : [])];
        begun = true;
        deferred.statements = [];
        return statements.join(';\n');
      };
      const deferred: Deferred = {
        statements: [],
        async send() {
          if (begun && deferred.statements.length === 0) return;
          await translated(() => client.query(pending()));
        },
      };
      const end = async (statement: 'COMMIT' | 'ROLLBACK') => {
        if (!open) return;
        open = false;
        // Nothing sent yet: nothing to commit or roll back.
        if (!begun && (statement === 'ROLLBACK' || deferred.statements.length === 0)) {
          client.release();
          return;
        }
        try {
          await client.query(statement === 'COMMIT' ? pending('COMMIT') : statement);
          client.release();
        } catch (error) {
          if (statement === 'ROLLBACK') {
            client.release(true);
            return;
          }
          // A statement of the message failed: the transaction is left aborted, and rolled back here (a connection
          // that cannot, or that broke, whether the COMMIT ran or not, is not given back to the pool).
          const rolledBack = await client.query('ROLLBACK').then(
            () => true,
            () => false,
          );
          client.release(!rolledBack);
          throw translateError(error);
        }
      };
      const db = transactionDb(client, deferred);
      return {
        collection: view(db, new Map()),
        replaceCollection: (from: string, to: string) => db.atomically(() => replaceCollection(db, from, to)),
        commit: () => end('COMMIT'),
        rollback: () => end('ROLLBACK'),
      };
    },
    async close() {
      if (ownsPool) await pool.end();
    },
  };
}

/** A transaction's statements not sent yet (its BEGIN among them until `send`). */
interface Deferred {
  statements: string[];
  send(): Promise<void>;
}

/** A dollar-quoted literal: the text as it is, with a tag it does not contain (JSON text is inlined without escaping). */
function dollarQuoted(text: string): string {
  let tag = 'rm';
  while (text.includes(`$${tag}$`)) tag = `rm${Math.random().toString(36).slice(2, 10)}`;
  return `$${tag}$${text}$${tag}$`;
}

const tableOf = (name: string) => quoteIdent(TABLE_PREFIX + name);
const indexNameOf = (table: string, name: string) =>
  quoteIdent(`rmi_${createHash('sha256').update(`${table}\0${name}`).digest('hex').slice(0, 40)}`);

interface IndexMeta {
  name: string;
  keys: [string[], 1 | -1 | 'text'][];
  unique: boolean;
}

const isTextIndex = (index: IndexMeta) => index.keys.some(([, direction]) => direction === 'text');

interface IndexedPaths {
  scalar: ReadonlySet<string>;
  /** The text index's paths, when the collection has one. */
  text: Path[] | null;
  collection: string;
}

/**
 * The words of a text index's fields as one tsvector: each path's strings (arrays of strings included), stemmed as
 * English. An index on this expression serves every $text condition, which repeats it exactly.
 */
function textVector(paths: readonly Path[]): string {
  // Concatenated onto an empty array: jsonb_build_array is only STABLE, and an index expression must be IMMUTABLE.
  const values = paths.map((path) => ` || coalesce(doc #> ARRAY[${path.map(quoteLiteral).join(', ')}]::text[], 'null')`);
  return `jsonb_to_tsvector('english'::regconfig, '[]'::jsonb${values.join('')}, '["string"]')`;
}

class PostgresCollection<T extends Document> implements Collection<T> {
  private readonly table: string;

  constructor(
    /** Where this view's statements go: the pool, or an open transaction. */
    private readonly db: Db,
    /** The pool: tables are created outside any transaction, so that a rolled-back one does not take them along. */
    private readonly shared: Db,
    readonly name: string,
    private readonly install: () => Promise<void>,
    private readonly state: TableState,
  ) {
    this.table = tableOf(name);
  }

  async findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 });
    return first ?? null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    const predicate = subset.parseFilter(filter);
    const parsed = subset.parseFindOptions(options);
    return this.read([], async (indexed) => {
      const q = new SqlQuery(indexed);
      const selected = parsed.fields
        ? `(SELECT jsonb_object_agg(key, value) FROM jsonb_each(doc) WHERE key = ANY(${q.param(['_id', ...parsed.fields], '::text[]')}))`
        : 'doc';
      const sql = `SELECT ${selected}::text AS doc FROM ${this.table} WHERE ${q.where(predicate)}${q.orderBy(parsed.sort)}${limitClause(q, parsed)}`;
      const { rows } = await this.db.query<{ doc: string }>(sql, q.finish());
      return rows.map((row) => decode<T>(row.doc));
    });
  }

  async countDocuments(filter?: Filter): Promise<number> {
    const predicate = subset.parseFilter(filter);
    return this.read(0, async (indexed) => {
      const q = new SqlQuery(indexed);
      const { rows } = await this.db.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${this.table} WHERE ${q.where(predicate)}`,
        q.finish(),
      );
      return Number(rows[0]?.n ?? 0);
    });
  }

  async insertOne(document: T): Promise<void> {
    subset.checkDocument(document, 'insertOne');
    await this.write(() => this.db.query(`INSERT INTO ${this.table} (id, doc) VALUES ($1, $2::jsonb)`, [document._id, encode(document)]));
  }

  async insertMany(documents: T[]): Promise<void> {
    documents.forEach((document, i) => subset.checkDocument(document, `insertMany[${i}]`));
    if (documents.length === 0) return;
    await this.write(async () => {
      try {
        await this.db.query(`INSERT INTO ${this.table} (id, doc) SELECT * FROM unnest($1::text[], $2::jsonb[])`, [
          documents.map((document) => document._id),
          documents.map(encode),
        ]);
      } catch (error) {
        if (sqlState(error) !== '23505') throw error;
        // MongoDB's ordered insertMany keeps the documents before the first duplicate.
        for (const document of documents) {
          await this.db.query(`INSERT INTO ${this.table} (id, doc) VALUES ($1, $2::jsonb)`, [document._id, encode(document)]);
        }
      }
    });
  }

  async replaceOne(filter: Filter, document: T, options?: { upsert?: boolean }): Promise<UpdateResult> {
    const predicate = subset.parseFilter(filter);
    subset.checkDocument(document, 'replaceOne');
    subset.checkReplacement(predicate, document);
    return this.modify(
      predicate,
      true,
      options?.upsert ?? false,
      (current) => {
        if (current._id !== document._id)
          throw new UpdateNotApplicableError(`replaceOne: _id cannot be changed (from '${String(current._id)}')`);
        return document;
      },
      () => document,
    );
  }

  async updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult> {
    const predicate = subset.parseFilter(filter);
    const operations = subset.parseUpdate(update);
    const upsert = options?.upsert ?? false;
    if (upsert) subset.upsertSeed(predicate);
    return this.modify(
      predicate,
      true,
      upsert,
      (current) => applyUpdate(current, operations),
      () => buildUpsert(predicate, operations),
    );
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const predicate = subset.parseFilter(filter);
    const operations: UpdateOperation[] = subset.parseUpdate(update);
    return this.modify(predicate, false, false, (current) => applyUpdate(current, operations), null);
  }

  async deleteOne(filter: Filter): Promise<number> {
    return this.delete(filter, true);
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.delete(filter, false);
  }

  async savePositioned({ put, remove }: PositionedChanges<T>): Promise<void> {
    // One walk of each document checks it and finds its Dates (a page of a replay writes thousands).
    const encoded = put.map((document, i) => encodeKnowingDates(document, subset.checkedHoldsDate(document, `savePositioned[${i}]`)));
    if (put.length === 0 && remove.length === 0) return;
    const olderThan = positionedOlderThan;
    // No savepoint inside a transaction: a page whose write fails is rolled back whole.
    await this.ensureCreated();
    if (this.db.defer) {
      for (const statement of this.positionedStatements(encoded, remove)) this.db.defer(statement);
      return;
    }
    await translated(async () => {
      if (remove.length > 0)
        await this.db.query(
          `DELETE FROM ${this.table} AS t USING unnest($1::text[], $2::float8[]) AS r(id, position) WHERE t.id = r.id AND ${olderThan('t', 'r.position')}`,
          [remove.map((removal) => removal._id), remove.map((removal) => removal._position)],
        );
      // The documents as one JSON array: a text[] or jsonb[] parameter would escape every document once more.
      if (put.length > 0)
        await this.db.query(
          `INSERT INTO ${this.table} AS t (id, doc) SELECT d->>'_id', d FROM jsonb_array_elements($1::jsonb) AS d
           ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc WHERE ${olderThan('t', "(EXCLUDED.doc->>'_position')::float8")}`,
          [`[${encoded.join(',')}]`],
        );
    });
  }

  /**
   * savePositioned's statements with their values inlined, to be sent in a transaction's next message (a message of
   * several statements takes no parameters). The same conditions: a document is written, and removed, only over an older one.
   */
  private positionedStatements(encoded: readonly string[], remove: PositionedChanges<T>['remove']): string[] {
    const statements: string[] = [];
    if (remove.length > 0)
      statements.push(
        `DELETE FROM ${this.table} AS t USING jsonb_to_recordset(${dollarQuoted(JSON.stringify(remove.map(({ _id, _position }) => ({ id: _id, position: _position }))))}::jsonb) AS r(id text, position float8)
         WHERE t.id = r.id AND ${positionedOlderThan('t', 'r.position')}`,
      );
    if (encoded.length > 0)
      statements.push(
        `INSERT INTO ${this.table} AS t (id, doc) SELECT d->>'_id', d FROM jsonb_array_elements(${dollarQuoted(`[${encoded.join(',')}]`)}::jsonb) AS d
         ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc WHERE ${positionedOlderThan('t', "(EXCLUDED.doc->>'_position')::float8")}`,
      );
    return statements;
  }

  async createIndex(keys: IndexKeys, options?: IndexOptions): Promise<void> {
    const index = subset.parseIndex(keys, options);
    const meta: IndexMeta = { name: index.name, keys: index.keys.map(([path, direction]) => [[...path], direction]), unique: index.unique };
    await this.write(() =>
      this.db.atomically(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [this.table]);
        const existing = await this.loadIndexes(client);
        const sameName = existing.find((other) => other.name === meta.name);
        const sameKeys = existing.find((other) => JSON.stringify(other.keys) === JSON.stringify(meta.keys));
        if (sameName && sameKeys === sameName && sameName.unique === meta.unique) return;
        if (sameName) throw new Error(`an index named '${meta.name}' already exists with other keys or options`);
        if (sameKeys) throw new Error(`an index on these keys already exists as '${sameKeys.name}'`);
        const indexName = indexNameOf(this.table, meta.name);
        if (isTextIndex(meta)) {
          if (existing.some(isTextIndex)) throw new Error('a collection has at most one text index');
          await client.query(`CREATE INDEX ${indexName} ON ${this.table} USING GIN ((${textVector(index.keys.map(([path]) => path))}))`);
          await client.query(`COMMENT ON INDEX ${indexName} IS ${quoteLiteral(JSON.stringify(meta))}`);
          return;
        }
        const columns = index.keys.map(
          ([path, direction]) =>
            `${path.length === 1 && path[0] === '_id' ? 'id' : `(${keyExpression(path)}) COLLATE "C"`} ${direction === 1 ? 'ASC' : 'DESC'}`,
        );
        await client.query(`CREATE ${meta.unique ? 'UNIQUE ' : ''}INDEX ${indexName} ON ${this.table} (${columns.join(', ')})`);
        await client.query(`COMMENT ON INDEX ${indexName} IS ${quoteLiteral(JSON.stringify(meta))}`);
      }),
    );
    this.state.indexes = null;
  }

  async drop(): Promise<void> {
    await this.db.query(`DROP TABLE IF EXISTS ${this.table}`);
    this.state.created = false;
    this.state.indexes = null;
  }

  private async delete(filter: Filter, one: boolean): Promise<number> {
    const predicate = subset.parseFilter(filter);
    return this.read(0, async (indexed) => {
      const q = new SqlQuery(indexed);
      const where = q.where(predicate);
      const sql = one
        ? `DELETE FROM ${this.table} WHERE id IN (SELECT id FROM ${this.table} WHERE ${where} LIMIT 1)`
        : `DELETE FROM ${this.table} WHERE ${where}`;
      const result = await this.db.query(sql, q.finish());
      return result.rowCount ?? 0;
    });
  }

  /**
   * Locks the matching rows, computes their new documents in TypeScript and
   * writes back those that changed; with `insert`, adds a document when none matched.
   */
  private async modify(
    predicate: Predicate,
    one: boolean,
    upsert: boolean,
    change: (current: Document) => Document,
    insert: (() => Document) | null,
  ): Promise<UpdateResult> {
    const attempt = () =>
      this.read<UpdateResult>(upsert ? null : { matchedCount: 0, modifiedCount: 0, upsertedId: null }, (indexed) =>
        this.db.atomically(async (client) => {
          const q = new SqlQuery(indexed);
          const sql = `SELECT doc::text AS doc FROM ${this.table} WHERE ${q.where(predicate)} ORDER BY id${one ? ' LIMIT 1' : ''} FOR UPDATE`;
          const { rows } = await client.query<{ doc: string }>(sql, q.finish());
          if (rows.length === 0 && upsert && insert) {
            const document = insert();
            await client.query(`INSERT INTO ${this.table} (id, doc) VALUES ($1, $2::jsonb)`, [document._id, encode(document)]);
            return { matchedCount: 0, modifiedCount: 0, upsertedId: document._id };
          }
          const changed: Document[] = [];
          for (const row of rows) {
            const current = decode<Document>(row.doc);
            const next = change(current);
            if (!valuesEqual(current, next)) changed.push(next);
          }
          if (changed.length > 0) {
            await client.query(
              `UPDATE ${this.table} AS t SET doc = v.doc FROM unnest($1::text[], $2::jsonb[]) AS v(id, doc) WHERE t.id = v.id`,
              [changed.map((document) => document._id), changed.map(encode)],
            );
          }
          return { matchedCount: rows.length, modifiedCount: changed.length, upsertedId: null };
        }),
      );
    if (!upsert) return attempt();
    for (let i = 1; ; i++) {
      try {
        return await this.write(attempt);
      } catch (error) {
        // A concurrent upsert inserted the same _id first: run again, now as an update.
        if (!(error instanceof DuplicateKeyError) || i >= UPSERT_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * Runs a statement with the paths known to be indexed. A missing table reads as
   * `empty` (null: the error is passed on). If a key condition fails because
   * another process dropped an index this process relied on, the index list is
   * reloaded and the statement retried.
   */
  private async read<R>(empty: R | null, run: (indexed: IndexedPaths) => Promise<R>): Promise<R> {
    await this.install();
    // Inside a transaction a missing table would abort it: make sure of it first (known after the first time).
    if (this.db.inTransaction) await this.ensureCreated();
    // A table not yet known to exist is looked up first: a collection nothing has written to yet (site settings
    // before an admin saves them) is read often, and each read of a missing table is an ERROR PostgreSQL logs.
    else if (!this.state.created && empty !== null) {
      const { rows } = await this.db.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [this.table]);
      if (!rows[0]!.exists) return empty;
      this.state.created = true;
    }
    const indexed = await this.indexedPaths();
    try {
      return await run(indexed);
    } catch (error) {
      const state = sqlState(error);
      if (state === '42P01') {
        this.state.created = false;
        this.state.indexes = null;
        if (empty !== null) return empty;
      }
      if (state === KEY_ERROR && indexed.scalar.size > 0) {
        this.state.indexes = null;
        const fresh = await this.indexedPaths();
        if (fresh.scalar.size < indexed.scalar.size) return translated(() => run(fresh));
      }
      throw translateError(error);
    }
  }

  /** Runs a statement that needs the table, creating it if this process has not seen it. */
  private async write<R>(run: () => Promise<R>): Promise<R> {
    await this.ensureCreated();
    // Inside a transaction, in a savepoint: a refused write (a duplicate key) leaves the transaction usable.
    const guarded = () => (this.db.inTransaction ? this.db.atomically(() => translated(run)) : translated(run));
    try {
      return await guarded();
    } catch (error) {
      if (sqlState(error) !== '42P01') throw error;
      this.state.created = false;
      this.state.indexes = null;
      await this.ensureCreated();
      return guarded();
    }
  }

  private async ensureCreated(): Promise<void> {
    await this.install();
    if (this.state.created) return;
    await this.shared.atomically(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [this.table]);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.table} (id text COLLATE "C" PRIMARY KEY, doc jsonb NOT NULL)`);
    });
    this.state.created = true;
  }

  /**
   * Paths covered by an index: rm_key guarantees they hold one scalar (or nothing) in every row; and the paths of the
   * text index, whose expression $text conditions repeat so that the planner uses it.
   */
  private async indexedPaths(): Promise<IndexedPaths> {
    const indexes = (this.state.indexes ??= await this.loadIndexes(this.db));
    const ordered = indexes.filter((index) => !isTextIndex(index));
    const text = indexes.find(isTextIndex);
    return {
      scalar: new Set(ordered.flatMap((index) => index.keys.map(([path]) => subset.pathKey(path))).filter((key) => key !== '_id')),
      text: text ? text.keys.map(([path]) => path) : null,
      collection: this.name,
    };
  }

  private async loadIndexes(db: Db | Queryable): Promise<IndexMeta[]> {
    const { rows } = await db.query<{ meta: string | null }>(
      `SELECT obj_description(indexrelid, 'pg_class') AS meta FROM pg_index WHERE indrelid = to_regclass($1)`,
      [this.table],
    );
    return rows.flatMap((row) => (row.meta ? [JSON.parse(row.meta) as IndexMeta] : []));
  }
}

function limitClause(q: SqlQuery, options: ParsedFindOptions): string {
  return `${options.limit > 0 ? ` LIMIT ${q.param(options.limit)}` : ''}${options.skip > 0 ? ` OFFSET ${q.param(options.skip)}` : ''}`;
}

async function transaction<R>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
  const client = await checkOut(pool);
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/** The stored row is older than `position` (or carries none): savePositioned's condition for writing over it. */
const positionedOlderThan = (row: string, position: string) =>
  `(${row}.doc->'_position' IS NULL OR (${row}.doc->>'_position')::float8 < ${position})`;

function sqlState(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

function translateError(error: unknown): unknown {
  const state = sqlState(error);
  if (state === '23505') return new DuplicateKeyError((error as pg.DatabaseError).detail ?? (error as Error).message);
  if (state === KEY_ERROR) {
    return new UnsupportedQueryError(
      `${(error as Error).message} (sort keys and indexed paths must hold a string, number, boolean, null or Date)`,
    );
  }
  return error;
}

async function translated<R>(run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (error) {
    throw translateError(error);
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** An escape-string literal, which means the same whatever standard_conforming_strings says. */
function quoteLiteral(value: string): string {
  return `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The SQL for rm_key at a path. Path segments are inlined so that queries match index expressions. */
function keyExpression(path: Path): string {
  const [first = '', ...rest] = path;
  return `rm_key(${rest.reduce((expression, segment) => `rm_step(${expression}, ${quoteLiteral(segment)})`, `doc -> ${quoteLiteral(first)}`)})`;
}

/** Whether a value holds a Date anywhere (most documents hold none). */
function holdsDate(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (value instanceof Date) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsDate(item)) return true;
    return false;
  }
  for (const key in value) if (holdsDate((value as Record<string, unknown>)[key])) return true;
  return false;
}

function encodeDates(this: Record<string, unknown>, key: string, encoded: unknown) {
  const raw = this[key];
  return raw instanceof Date ? { $date: raw.getTime() } : encoded;
}

/** JSON with each Date as {"$date": ms}. A replacer takes JSON.stringify off its fast path: only where there is a Date. */
function encode(value: unknown): string {
  return encodeKnowingDates(value, holdsDate(value));
}

/** encode, where the caller has walked the value already and knows whether it holds a Date. */
function encodeKnowingDates(value: unknown, datesHeld: boolean): string {
  return datesHeld ? JSON.stringify(value, encodeDates) : JSON.stringify(value);
}

function decode<T>(text: string): T {
  // A reviver makes parsing several times slower; most documents hold no Date.
  if (!text.includes('"$date"')) return JSON.parse(text) as T;
  return JSON.parse(text, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) && '$date' in value
      ? new Date((value as { $date: number }).$date)
      : value,
  ) as T;
}

/** The text key rm_key computes in SQL, for parameters. */
function sortKey(value: unknown): string {
  if (value === null || value === undefined) return '1';
  if (typeof value === 'number') return `2${numberKey(value)}`;
  if (typeof value === 'string') return `3${value}`;
  if (typeof value === 'boolean') return value ? '51' : '50';
  if (value instanceof Date) return `6${numberKey(value.getTime())}`;
  throw new UnsupportedQueryError('arrays and embedded documents have no sort key');
}

/** Big-endian IEEE 754 bits order non-negative doubles; negatives take the complement, behind a lower prefix. */
function numberKey(value: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(value));
  const hex = view.getBigUint64(0).toString(16).padStart(16, '0');
  return value < 0 ? `0${[...hex].map((digit) => (15 - parseInt(digit, 16)).toString(16)).join('')}` : `1${hex}`;
}

const RANGE_SQL = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** Builds one statement's WHERE and ORDER BY, collecting parameters and SQL/JSON path variables. */
class SqlQuery {
  private readonly params: unknown[] = [];
  private readonly variables: Record<string, unknown> = {};
  private variablesIndex = -1;

  constructor(private readonly indexed: IndexedPaths) {}

  param(value: unknown, cast = ''): string {
    this.params.push(value);
    return `$${this.params.length}${cast}`;
  }

  finish(): unknown[] {
    if (this.variablesIndex >= 0) this.params[this.variablesIndex] = JSON.stringify(this.variables);
    return this.params;
  }

  where(predicate: Predicate): string {
    switch (predicate.kind) {
      case 'and':
      case 'or': {
        if (predicate.items.length === 0) return 'TRUE';
        return `(${predicate.items.map((item) => this.where(item)).join(predicate.kind === 'and' ? ' AND ' : ' OR ')})`;
      }
      case 'field': {
        const { path, condition } = predicate;
        if (path.length === 1 && path[0] === '_id') return this.idCondition(condition);
        if (this.indexed.scalar.has(subset.pathKey(path)) && condition.op !== 'exists' && condition.op !== 'regex')
          return this.keyCondition(path, condition);
        return this.pathCondition(path, condition);
      }
      case 'text': {
        if (!this.indexed.text) throw new UnsupportedQueryError(`$text needs a text index on ${this.indexed.collection}`);
        if (predicate.words.length === 0) return 'FALSE';
        // The words are letters and digits only: nothing in them is tsquery syntax.
        return `${textVector(this.indexed.text)} @@ to_tsquery('english'::regconfig, ${this.param(predicate.words.join(' & '))})`;
      }
    }
  }

  orderBy(sort: [Path, 1 | -1][]): string {
    if (sort.length === 0) return '';
    const keys = sort.map(([path, direction]) => {
      const expression = path.length === 1 && path[0] === '_id' ? 'id' : `${keyExpression(path)} COLLATE "C"`;
      return `${expression} ${direction === 1 ? 'ASC' : 'DESC'}`;
    });
    return ` ORDER BY ${keys.join(', ')}`;
  }

  /** _id is always a present string, stored in the `id` column with code-point order. */
  private idCondition(condition: Condition): string {
    switch (condition.op) {
      case 'eq':
        return typeof condition.value === 'string' ? `id = ${this.param(condition.value)}` : 'FALSE';
      case 'ne':
        return typeof condition.value === 'string' ? `id <> ${this.param(condition.value)}` : 'TRUE';
      case 'in':
      case 'nin': {
        const ids = condition.values.filter((value): value is string => typeof value === 'string');
        const any = ids.length > 0 ? `id = ANY(${this.param(ids, '::text[]')})` : 'FALSE';
        return condition.op === 'in' ? any : `NOT ${any}`;
      }
      case 'exists':
        return condition.value ? 'TRUE' : 'FALSE';
      case 'regex':
        return `id ~ ${this.param(condition.regex.postgres)}`;
      default:
        return typeof condition.value === 'string' ? `id ${RANGE_SQL[condition.op]} ${this.param(condition.value)}` : 'FALSE';
    }
  }

  /** On an indexed path each row holds one scalar or nothing, so MongoDB's rules reduce to comparing keys. */
  private keyCondition(path: Path, condition: Condition): string {
    const key = `${keyExpression(path)} COLLATE "C"`;
    switch (condition.op) {
      case 'eq':
        return Array.isArray(condition.value) ? 'FALSE' : `${key} = ${this.param(sortKey(condition.value))}`;
      case 'ne':
        return Array.isArray(condition.value) ? 'TRUE' : `${key} <> ${this.param(sortKey(condition.value))}`;
      case 'in':
      case 'nin': {
        const keys = condition.values.filter((value) => !Array.isArray(value)).map(sortKey);
        const any = keys.length > 0 ? `${key} = ANY(${this.param(keys, '::text[]')})` : 'FALSE';
        return condition.op === 'in' ? any : `NOT ${any}`;
      }
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte': {
        const bound = sortKey(condition.value);
        const bracket = bound.slice(0, 1);
        const comparison = `${key} ${RANGE_SQL[condition.op]} ${this.param(bound)}`;
        return condition.op === 'gt' || condition.op === 'gte'
          ? `(${comparison} AND ${key} < ${this.param(String.fromCharCode(bracket.charCodeAt(0) + 1))})`
          : `(${comparison} AND ${key} >= ${this.param(bracket)})`;
      }
      default:
        throw new Error(`unreachable: ${condition.op}`);
    }
  }

  private pathCondition(path: Path, condition: Condition): string {
    switch (condition.op) {
      case 'eq':
        return this.equalsAny(path, [condition.value]);
      case 'ne':
        return `NOT ${this.equalsAny(path, [condition.value])}`;
      case 'in':
        return this.equalsAny(path, condition.values);
      case 'nin':
        return `NOT ${this.equalsAny(path, condition.values)}`;
      case 'exists':
        return `${condition.value ? '' : 'NOT '}${this.pathExists(accessor(path))}`;
      case 'regex':
        return `EXISTS (SELECT 1 FROM jsonb_path_query(doc, ${this.param(`${accessor(path)} ? (@.type() == "string")`, '::jsonpath')}) AS r(v) WHERE (r.v #>> '{}') ~ ${this.param(condition.regex.postgres)})`;
      default: {
        const operator = RANGE_SQL[condition.op];
        const value = condition.value;
        const test =
          value instanceof Date
            ? `@.type() == "object" && @."$date" ${operator} ${this.variable(value.getTime())}`
            : `@.type() != "array" && @ ${operator} ${this.variable(value)}`;
        return this.pathExists(`${accessor(path)} ? (${test})`);
      }
    }
  }

  /**
   * MongoDB equality: a value reached by the path (an array counting itself and
   * its elements) equals an operand; null also matches a path that ends missing.
   * Lax mode unwraps arrays once per step, as MongoDB does; `@.type()` guards
   * keep lax comparison from unwrapping nested arrays a second time.
   */
  private equalsAny(path: Path, operands: Operand[]): string {
    const clauses: string[] = [];
    const tests: string[] = [];
    const scalars = operands.filter((value) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean');
    const dates = operands.filter((value): value is Date => value instanceof Date);
    if (scalars.length > 0) tests.push(`(@.type() != "array" && (${scalars.map((value) => `@ == ${this.variable(value)}`).join(' || ')}))`);
    if (dates.length > 0)
      tests.push(`(@.type() == "object" && (${dates.map((value) => `@."$date" == ${this.variable(value.getTime())}`).join(' || ')}))`);
    if (tests.length > 0) clauses.push(this.pathExists(`${accessor(path)} ? (${tests.join(' || ')})`));
    if (operands.includes(null)) clauses.push(this.pathExists(`${accessor(path)} ? (@.type() == "null")`), this.missing(path));
    for (const array of operands.filter(Array.isArray)) {
      const encoded = this.param(encode(array), '::jsonb');
      for (const candidates of [accessor(path), `${accessor(path)} ? (@.type() == "array")`]) {
        clauses.push(
          `EXISTS (SELECT 1 FROM jsonb_path_query(doc, ${this.param(candidates, '::jsonpath')}) AS r(v) WHERE r.v = ${encoded})`,
        );
      }
    }
    return clauses.length > 0 ? `(${clauses.join(' OR ')})` : 'FALSE';
  }

  /** Whether the path ends at a missing field somewhere, as MongoDB's path iterator sees it. */
  private missing(path: Path): string {
    if (path.length === 1) return `NOT (doc ? ${this.param(path[0])})`;
    return `jsonb_path_exists(doc, ${this.param(`lax $ ? (${missingTest(path, 0, '@')})`, '::jsonpath')})`;
  }

  private pathExists(jsonPath: string): string {
    return `jsonb_path_exists(doc, ${this.param(jsonPath, '::jsonpath')}, ${this.variablesRef()})`;
  }

  private variable(value: unknown): string {
    const name = `v${Object.keys(this.variables).length}`;
    this.variables[name] = value;
    return `$${name}`;
  }

  private variablesRef(): string {
    if (this.variablesIndex < 0) {
      this.params.push('{}');
      this.variablesIndex = this.params.length - 1;
    }
    return `$${this.variablesIndex + 1}::jsonb`;
  }
}

function accessor(path: Path): string {
  return `lax $${path.map((segment) => `.${JSON.stringify(segment)}`).join('')}`;
}

/**
 * A SQL/JSON path predicate, true when walking `path` from node `at` (never an
 * array) ends at a missing field: a field absent from a document, a scalar or
 * Date where a document was needed, or a document inside an array lacking the rest.
 */
function missingTest(path: Path, index: number, at: string): string {
  const field = `${at}.${JSON.stringify(path[index])}`;
  const absent = `!(exists(${field}))`;
  if (index === path.length - 1) return absent;
  const inElements = `(${field}.type() == "array" && exists(${field}[*] ? (@.type() == "object" && !(exists(@."$date")) && (${missingTest(path, index + 1, '@')}))))`;
  const inValue = `(${field}.type() != "array" && (${field}.type() != "object" || exists(${field}."$date") || ${missingTest(path, index + 1, field)}))`;
  return `${absent} || ${inElements} || ${inValue}`;
}
