/**
 * Differential property test: random documents, filters, sorts and updates run on
 * the PostgreSQL adapter (with and without indexes) and on mingo, a JavaScript
 * implementation of MongoDB's semantics, and on MongoDB itself when MONGODB_URL
 * is set; the answers must be identical.
 *
 * Where mingo is known to differ from MongoDB, MongoDB's documented behaviour is
 * what the adapter implements (the contract suite pins it down) and the generator
 * stays clear of the corner:
 * - nested arrays (mingo descends into them; MongoDB unwraps one level only);
 * - documents inside arrays that lack a queried field (MongoDB counts such an
 *   element as "missing" for null and $exists; mingo does not), so elements of
 *   `arr` always carry both of their fields;
 * - updates that MongoDB rejects (e.g. $set inside a string; mingo ignores them):
 *   each update only targets paths whose type fits it;
 * - arrays at the end of a path that already went through an array ('arr.x'
 *   holding a list): MongoDB matches their elements, mingo does not;
 * - comparing a path through an array of documents ('arr.x') with an array
 *   (mingo compares the list of collected values, which MongoDB never does);
 * - arrays inside $in/$nin (mingo compares them with the elements only, never
 *   with the whole array as MongoDB and its own $eq do);
 * - characters where PCRE and JavaScript regexes differ (newlines, Unicode
 *   spaces, U+017F and U+212A under `i`) and code points above U+D7FF (JavaScript
 *   compares UTF-16 units, MongoDB code points); -0 (JSON stores 0).
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { MongoClient } from 'mongodb';
import { Query } from 'mingo';
import { updateMany } from 'mingo/updater';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  UnsupportedQueryError,
  type Collection,
  type Document,
  type DocumentStore,
  type Filter,
  type Update,
} from '../../platform/document-store/port';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import { sortValue } from '../../platform/document-store/semantics';
import { parsePath } from '../../platform/document-store/subset';
import { createTestDatabase, type TestDatabase } from '../support/database';

type Doc = Document & Record<string, unknown>;

// Small value spaces, so that generated filters often select some documents but not all.
const DATES = [0, 1_700_000_000_000, -1_000].map((ms) => new Date(ms));

const text = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'k', 's', 'é', 'ß', '中', ' ', '0', '_'), maxLength: 2 });
const number = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -2, max: 2 }) },
  { weight: 1, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)) },
);
const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: number },
  { weight: 3, arbitrary: text },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom(...DATES) },
);
const scalarArray = fc.array(scalar, { maxLength: 3 });
const scalarOrArray = fc.oneof({ weight: 2, arbitrary: scalar }, { weight: 1, arbitrary: scalarArray });

const element = fc.record({ x: scalar, y: scalar });

function documents(): fc.Arbitrary<Doc[]> {
  const body = fc.record(
    {
      a: scalarOrArray,
      b: scalar,
      c: scalar,
      o: fc.oneof(scalar, fc.record({ x: scalarOrArray, y: scalar }, { requiredKeys: [] })),
      arr: fc.array(element, { maxLength: 3 }),
      tags: fc.uniqueArray(scalar, {
        maxLength: 3,
        selector: (value) => (value instanceof Date ? `date:${value.getTime()}` : `${typeof value}:${String(value)}`),
      }),
      n: number,
    },
    { requiredKeys: [] },
  );
  return fc.array(body, { minLength: 4, maxLength: 12 }).map((bodies) => bodies.map((fields, i): Doc => ({ _id: `d${i}`, ...fields })));
}

const QUERY_PATHS = ['a', 'b', 'c', 'o', 'o.x', 'o.y', 'arr', 'arr.x', 'arr.y', 'tags', 'n', '_id', 'absent'];
/** Paths that hold one scalar or nothing in every generated document; the indexed collection indexes them. */
const SORT_PATHS = ['b', 'c', 'o.y', 'n'];

const regexPiece = fc.oneof(
  fc.constantFrom('a', 'b', 'A', 's', 'k', '0', ' ', '_', 'é', '中'),
  fc.constantFrom('.', '\\d', '\\w', '\\s', '\\W', '[a-c]', '[^b]', '[A-Z0-9]', '\\b'),
);
const quantifier = fc.constantFrom('', '', '', '*', '+', '?', '{1,2}', '*?');
const regex = fc
  .record({
    start: fc.boolean(),
    pieces: fc.array(fc.tuple(regexPiece, quantifier), { minLength: 1, maxLength: 2 }),
    alternative: fc.option(fc.constantFrom('b', 'c+', '[0-9]'), { nil: undefined }),
    end: fc.boolean(),
    options: fc.constantFrom('', 'i', 'm', 's', 'is'),
  })
  .map(({ start, pieces, alternative, end, options }) => {
    const body = pieces.map(([piece, q]) => (q === '' ? piece : `(?:${piece})${q}`)).join('');
    const pattern = `${start ? '^' : ''}${alternative ? `(?:${body}|${alternative})` : body}${end ? '$' : ''}`;
    // Case-folding of non-ASCII letters is outside the subset (PCRE's tables are not reproduced).
    const safe = options.includes('i') ? pattern.replace(/[é中]/g, 'a') : pattern;
    return { $regex: safe, $options: options };
  });

/** Sorted, with a unique tiebreak so there is exactly one right order; skip and limit only come with a sort. */
const findOptions: fc.Arbitrary<{ sort?: Record<string, 1 | -1>; limit?: number; skip?: number }> = fc.option(
  fc.record(
    {
      sort: fc
        .uniqueArray(fc.tuple(fc.constantFrom(...SORT_PATHS, 'a'), fc.constantFrom<1 | -1>(1, -1)), {
          maxLength: 2,
          selector: ([path]) => path,
        })
        .map((keys) => Object.fromEntries([...keys, ['_id', 1]]) as Record<string, 1 | -1>),
      limit: fc.integer({ min: 0, max: 6 }),
      skip: fc.integer({ min: 0, max: 4 }),
    },
    { requiredKeys: ['sort'] },
  ),
  { nil: {} },
);

/** Scalars found in the documents (and their ids), so that generated filters often select some documents but not all. */
function valuesIn(docs: Doc[]): unknown[] {
  const values: unknown[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object' && !(value instanceof Date)) Object.values(value).forEach(visit);
    else values.push(value);
  };
  docs.forEach(visit);
  return values;
}

/** Filters and updates whose operands are random or taken from the documents. */
function queries(docs: Doc[]) {
  const seen = valuesIn(docs);
  const value = fc.oneof(scalar, fc.constantFrom(...seen));
  const values = fc.array(value, { maxLength: 3 });
  const rangeOperand = value.filter((item) => item !== null);
  const operand = fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: values });

  const condition = (operand: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
    fc.oneof(
      { weight: 3, arbitrary: operand },
      { weight: 1, arbitrary: operand.map(($eq) => ({ $eq })) },
      { weight: 2, arbitrary: operand.map(($ne) => ({ $ne })) },
      {
        weight: 3,
        arbitrary: fc.tuple(fc.constantFrom('$gt', '$gte', '$lt', '$lte'), rangeOperand).map(([op, bound]) => ({ [op]: bound })),
      },
      { weight: 1, arbitrary: fc.tuple(rangeOperand, rangeOperand).map(([low, high]) => ({ $gte: low, $lt: high })) },
      { weight: 2, arbitrary: values.map(($in) => ({ $in })) },
      { weight: 1, arbitrary: values.map(($nin) => ({ $nin })) },
      { weight: 2, arbitrary: fc.boolean().map(($exists) => ({ $exists })) },
      { weight: 2, arbitrary: regex },
    );

  const fieldFilter = fc
    .constantFrom(...QUERY_PATHS)
    .chain((path) => condition(path.startsWith('arr.') ? value : operand).map((item): Filter => ({ [path]: item })));

  const filter: fc.Arbitrary<Filter> = fc.letrec<{ filter: Filter }>((tie) => ({
    filter: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      {
        weight: 4,
        arbitrary: fc.array(fieldFilter, { minLength: 1, maxLength: 2 }).map((parts): Filter => Object.assign({}, ...parts) as Filter),
      },
      { weight: 1, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: fc.array(tie('filter'), { minLength: 1, maxLength: 3 }).map(($or): Filter => ({ $or })) },
      { weight: 1, arbitrary: fc.array(tie('filter'), { minLength: 1, maxLength: 3 }).map(($and): Filter => ({ $and })) },
    ),
  })).filter;

  const update: fc.Arbitrary<Update> = fc
    .record(
      {
        set: fc.option(fc.tuple(fc.constantFrom('b', 'c', 'fresh'), scalar), { nil: undefined }),
        setArray: fc.option(scalarOrArray, { nil: undefined }),
        unset: fc.option(fc.constantFrom('o.x', 'o', 'arr', 'absent'), { nil: undefined }),
        n: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }),
        tags: fc.option(values, { nil: undefined }),
      },
      { requiredKeys: [] },
    )
    .map(({ set, setArray, unset, n, tags }) => {
      const result: Record<string, Record<string, unknown>> = {};
      const put = (operator: string, path: string, value: unknown) => {
        result[operator] = { ...result[operator], [path]: value };
      };
      if (set) put('$set', set[0], set[1]);
      if (setArray !== undefined) put('$set', 'a', setArray);
      if (unset) put('$unset', unset, '');
      if (n !== undefined) put('$set', 'n', n);
      if (tags) put('$set', 'tags', tags);
      return Object.keys(result).length > 0 ? (result as Update) : ({ $set: { touched: true } } as Update);
    });

  return fc.record({
    finds: fc.array(fc.tuple(filter, findOptions), { minLength: 1, maxLength: 4 }),
    updateFilter: filter,
    update,
    deleteFilter: filter,
  });
}

function mingoFind(reference: Doc[], query: Filter, options: { sort?: Record<string, 1 | -1>; limit?: number; skip?: number }): Doc[] {
  let cursor = new Query(query).find<Doc>(reference);
  if (options.sort) cursor = cursor.sort(options.sort);
  if (options.skip) cursor = cursor.skip(options.skip);
  if (options.limit) cursor = cursor.limit(options.limit);
  return cursor.all();
}

function byId(documents: Doc[]): Doc[] {
  return [...documents].sort((x, y) => (x._id < y._id ? -1 : x._id > y._id ? 1 : 0));
}

/** Whether sorting these documents by these keys is one the adapter refuses (arrays or embedded documents under a key). */
function unsortable(documents: Doc[], sort: Record<string, 1 | -1>): boolean {
  return documents.some((document) =>
    Object.keys(sort).some((key) => {
      try {
        sortValue(document, parsePath(key));
        return false;
      } catch {
        return true;
      }
    }),
  );
}

/** What the adapter's answers are compared with: mingo always, MongoDB itself when MONGODB_URL is set. */
interface Reference {
  name: string;
  load(documents: Doc[]): Promise<void>;
  find(query: Filter, options: { sort?: Record<string, 1 | -1>; limit?: number; skip?: number }): Promise<Doc[]>;
  updateMany(filter: Filter, update: Update): Promise<{ matchedCount: number; modifiedCount: number }>;
  deleteMany(filter: Filter): Promise<void>;
  close(): Promise<void>;
}

function mingoReference(): Reference {
  let documents: Doc[] = [];
  return {
    name: 'mingo',
    async load(docs) {
      documents = structuredClone(docs);
    },
    find: async (query, options) => mingoFind(documents, query, options),
    updateMany: async (filter, update) => updateMany(documents, filter, update as never),
    async deleteMany(filter) {
      const deleted = new Set(mingoFind(documents, filter, {}));
      documents = documents.filter((document) => !deleted.has(document));
    },
    close: async () => undefined,
  };
}

async function mongoReference(url: string): Promise<Reference> {
  const client = await new MongoClient(url, { ignoreUndefined: true }).connect();
  const db = client.db(`bhc_test_${randomBytes(6).toString('hex')}`);
  const collection = db.collection<Doc>('reference');
  return {
    name: 'MongoDB',
    async load(docs) {
      await collection.deleteMany({});
      await collection.insertMany(structuredClone(docs));
    },
    async find(query, { sort, skip, limit }) {
      let cursor = collection.find(query as never);
      if (sort) cursor = cursor.sort(sort);
      if (skip) cursor = cursor.skip(skip);
      if (limit) cursor = cursor.limit(limit);
      return (await cursor.toArray()) as Doc[];
    },
    async updateMany(filter, update) {
      const { matchedCount, modifiedCount } = await collection.updateMany(filter as never, update as never);
      return { matchedCount, modifiedCount };
    },
    async deleteMany(filter) {
      await collection.deleteMany(filter as never);
    },
    async close() {
      await db.dropDatabase();
      await client.close();
    },
  };
}

const references: { name: string; skip: boolean; open(): Promise<Reference> }[] = [
  { name: 'mingo', skip: false, open: async () => mingoReference() },
  { name: 'MongoDB', skip: !process.env.MONGODB_URL, open: () => mongoReference(process.env.MONGODB_URL!) },
];

for (const { name, skip, open } of references) {
  describe.skipIf(skip)(`document store: PostgreSQL adapter against ${name}`, () => {
    let database: TestDatabase;
    let store: DocumentStore;
    let plain: Collection<Doc>;
    let indexed: Collection<Doc>;
    let reference: Reference;

    beforeAll(async () => {
      database = await createTestDatabase();
      store = createPostgresDocumentStore({ connectionString: database.url });
      plain = store.collection<Doc>('differential_plain');
      indexed = store.collection<Doc>('differential_indexed');
      await indexed.createIndex({ b: 1 });
      await indexed.createIndex({ c: 1, 'o.y': -1 });
      await indexed.createIndex({ n: -1 });
      reference = await open();
    });

    afterAll(async () => {
      await reference?.close();
      await store?.close();
      await database?.drop();
    });

    it(`finds, counts, sorts, pages, updates and deletes like ${name}`, { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(
          documents().chain((docs) => fc.tuple(fc.constant(docs), queries(docs))),
          async ([docs, { finds, updateFilter, update: updateSpec, deleteFilter }]) => {
            await reference.load(docs);
            for (const collection of [plain, indexed]) {
              await collection.deleteMany({});
              await collection.insertMany(structuredClone(docs));
            }

            for (const [query, options] of finds) {
              const matched = await reference.find(query, {});
              const expected = await reference.find(query, options);
              for (const collection of [plain, indexed]) {
                expect(await collection.countDocuments(query)).toBe(matched.length);
                let actual: Doc[];
                try {
                  actual = await collection.find(query, options);
                } catch (error) {
                  if (error instanceof UnsupportedQueryError && options.sort && unsortable(matched, options.sort)) continue;
                  throw error;
                }
                expect(options.sort ? actual : byId(actual)).toEqual(options.sort ? expected : byId(expected));
              }
            }

            const expectedUpdate = await reference.updateMany(updateFilter, updateSpec);
            const updated = byId(await reference.find({}, {}));
            for (const collection of [plain, indexed]) {
              const result = await collection.updateMany(updateFilter, updateSpec);
              expect(result.matchedCount).toBe(expectedUpdate.matchedCount);
              expect(result.modifiedCount).toBe(expectedUpdate.modifiedCount);
              expect(byId(await collection.find({}))).toEqual(updated);
            }

            await reference.deleteMany(deleteFilter);
            const remaining = (await reference.find({}, {})).length;
            for (const collection of [plain, indexed]) {
              await collection.deleteMany(deleteFilter);
              expect(await collection.countDocuments()).toBe(remaining);
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  });
}
