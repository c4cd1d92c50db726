/**
 * The document store on MongoDB (scale-out). Every call is checked against the
 * subset first (subset.ts), exactly as the PostgreSQL adapter does, and sent in a
 * normalised form. Where the PostgreSQL adapter refuses data at run time (an
 * array or embedded document under a sort key or an indexed path) this adapter
 * refuses it too, so code that works on one adapter works on the other.
 */
import { randomUUID } from 'node:crypto';
import { MongoBulkWriteError, MongoClient, MongoServerError, type Db, type Document as MongoDocument } from 'mongodb';
import { DuplicateKeyError, UnsupportedQueryError } from './port';
import type { Collection, Document, DocumentStore } from './port';
import type { Filter, FindOptions, PositionedChanges, IndexKeys, IndexOptions, Sort, Update, UpdateResult } from './port';
import { sortValue, unsortable, UpdateNotApplicableError } from './semantics';
// The query subset both adapters keep to (parsing, checks, paths): subset.parseFilter and the like.
import * as subset from './subset';
import type { Condition, Path, Predicate, UpdateOperation } from './subset';

/** MongoDB error codes for an update that does not fit the document: BadValue, TypeMismatch, PathNotViable, ImmutableField. */
const NOT_APPLICABLE_CODES = new Set([2, 14, 28, 66]);
const DUPLICATE_KEY = 11000;
const NAMESPACE_NOT_FOUND = 26;
/** $text on a collection without a text index. */
const INDEX_NOT_FOUND = 27;

/**
 * The MongoDB document store, once the server has answered a ping (the start-up check): the driver connects
 * lazily, so without this an unreachable server would only show on the first request.
 */
export async function connectMongoDocumentStore(url: string, dbName?: string): Promise<DocumentStore> {
  // ignoreUndefined: an undefined field is left out, as JSON.stringify does in the PostgreSQL adapter.
  const client = new MongoClient(url, { ignoreUndefined: true, serverSelectionTimeoutMS: 10_000 });
  try {
    await client.connect();
    await client.db(dbName).command({ ping: 1 });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return createMongoDocumentStore(client, dbName);
}

function createMongoDocumentStore(client: MongoClient, dbName?: string): DocumentStore {
  const db = client.db(dbName);
  const collections = new Map<string, MongoCollectionAdapter<Document>>();
  return {
    collection<T extends Document = Document>(name: string): Collection<T> {
      const checked = subset.parseCollectionName(name);
      let collection = collections.get(checked);
      if (!collection) {
        collection = new MongoCollectionAdapter(db, checked);
        collections.set(checked, collection);
      }
      return collection as unknown as Collection<T>;
    },
    async listCollections() {
      const infos = await db.listCollections({}, { nameOnly: true }).toArray();
      return infos
        .map((info) => info.name)
        .filter((name) => !name.startsWith('system.'))
        .sort();
    },
    async replaceCollection(from, to) {
      const source = subset.parseCollectionName(from);
      const target = subset.parseCollectionName(to);
      // One step for readers: MongoDB renames within a database atomically, dropping the target.
      try {
        await translated(() => db.renameCollection(source, target, { dropTarget: true }));
      } catch (error) {
        // A collection nothing was written to does not exist: it takes the place as an empty one.
        if (!(error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND)) throw error;
        await db
          .collection(target)
          .drop()
          .catch(() => undefined);
      }
      collections.get(source)?.forgetIndexes();
      collections.get(target)?.forgetIndexes();
    },
    async close() {
      await client.close();
    },
  };
}

class MongoCollectionAdapter<T extends Document> implements Collection<T> {
  private indexedPaths: Path[] | null = null;

  constructor(
    private readonly db: Db,
    readonly name: string,
  ) {}

  private get native() {
    return this.db.collection<MongoDocument>(this.name);
  }

  async findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 });
    return first ?? null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    const query = toMongoFilter(subset.parseFilter(filter));
    const { sort, limit, skip, fields } = subset.parseFindOptions(options);
    // The sort keys are read too, to be checked below, and then left out.
    const read = fields && new Set([...fields, ...sort.map(([path]) => path[0]!)]);
    const documents = await translated(() =>
      this.native
        .find(query, {
          sort: Object.fromEntries(sort.map(([path, direction]) => [subset.pathKey(path), direction])),
          limit,
          skip,
          ...(read ? { projection: Object.fromEntries([...read].map((field) => [field, 1])) } : {}),
        })
        .toArray(),
    );
    // MongoDB would order arrays by their smallest/largest element; PostgreSQL refuses, so refuse here too.
    for (const document of documents) for (const [path] of sort) sortValue(document, path);
    if (fields)
      for (const document of documents)
        for (const key of Object.keys(document)) if (key !== '_id' && !fields.includes(key)) delete document[key];
    return documents as unknown as T[];
  }

  async countDocuments(filter?: Filter): Promise<number> {
    return translated(() => this.native.countDocuments(toMongoFilter(subset.parseFilter(filter))));
  }

  async insertOne(document: T): Promise<void> {
    subset.checkDocument(document, 'insertOne');
    const indexed = await this.loadIndexedPaths();
    for (const path of indexed) sortValue(document, path);
    await translated(() => this.native.insertOne({ ...document } as MongoDocument));
  }

  async insertMany(documents: T[]): Promise<void> {
    documents.forEach((document, i) => subset.checkDocument(document, `insertMany[${i}]`));
    if (documents.length === 0) return;
    const indexed = await this.loadIndexedPaths();
    for (const document of documents) for (const path of indexed) sortValue(document, path);
    await translated(() =>
      this.native.insertMany(
        documents.map((document): MongoDocument => ({ ...document })),
        { ordered: true },
      ),
    );
  }

  async replaceOne(filter: Filter, document: T, options?: { upsert?: boolean }): Promise<UpdateResult> {
    const predicate = subset.parseFilter(filter);
    subset.checkDocument(document, 'replaceOne');
    subset.checkReplacement(predicate, document);
    const indexed = await this.loadIndexedPaths();
    for (const path of indexed) sortValue(document, path);
    const result = await translated(() =>
      this.native.replaceOne(toMongoFilter(predicate), { ...document }, { upsert: options?.upsert ?? false }),
    );
    return toResult(result);
  }

  async updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult> {
    const predicate = subset.parseFilter(filter);
    const operations = subset.parseUpdate(update);
    const upsert = options?.upsert ?? false;
    const seed = upsert ? subset.upsertSeed(predicate) : [];
    await this.checkIndexedUpdate([...operations, ...seed.map(([path, value]): UpdateOperation => ({ op: 'set', path, value }))]);
    const mongoUpdate = toMongoUpdate(operations);
    // Ids are strings here: choose one rather than let MongoDB invent an ObjectId.
    if (upsert && !seed.some(([path]) => subset.pathKey(path) === '_id')) mongoUpdate.$setOnInsert = { _id: randomUUID() };
    const result = await translated(() => this.native.updateOne(toMongoFilter(predicate), mongoUpdate, { upsert }));
    return toResult(result);
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const predicate = subset.parseFilter(filter);
    const operations = subset.parseUpdate(update);
    await this.checkIndexedUpdate(operations);
    const result = await translated(() => this.native.updateMany(toMongoFilter(predicate), toMongoUpdate(operations)));
    return toResult(result);
  }

  async deleteOne(filter: Filter): Promise<number> {
    const result = await translated(() => this.native.deleteOne(toMongoFilter(subset.parseFilter(filter))));
    return result.deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const result = await translated(() => this.native.deleteMany(toMongoFilter(subset.parseFilter(filter))));
    return result.deletedCount;
  }

  async savePositioned({ put, remove }: PositionedChanges<T>): Promise<void> {
    put.forEach((document, i) => subset.checkDocument(document, `savePositioned[${i}]`));
    if (put.length === 0 && remove.length === 0) return;
    const indexed = await this.loadIndexedPaths();
    for (const document of put) for (const path of indexed) sortValue(document, path);
    const olderThan = (position: number) => ({ $or: [{ _position: { $lt: position } }, { _position: { $exists: false } }] });
    const operations = [
      ...remove.map(({ _id, _position }) => ({ deleteOne: { filter: { _id, ...olderThan(_position) } } })),
      ...put.map((document) => ({
        replaceOne: {
          filter: { _id: document._id, ...olderThan(document._position as number) },
          replacement: { ...document } as MongoDocument,
          upsert: true,
        },
      })),
    ];
    try {
      await this.native.bulkWrite(operations as never, { ordered: false });
    } catch (error) {
      // An upsert whose stored document is at or past its position finds no match and collides on _id: skipped, as meant.
      const failures =
        error instanceof MongoBulkWriteError ? (Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors]) : null;
      if (failures?.every((failure) => failure.code === DUPLICATE_KEY && /index: _id_ /.test(failure.errmsg ?? ''))) return;
      if (failures?.some((failure) => failure.code === DUPLICATE_KEY))
        throw new DuplicateKeyError(error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  forgetIndexes() {
    this.indexedPaths = null;
  }

  async createIndex(keys: IndexKeys, options?: IndexOptions): Promise<void> {
    const index = subset.parseIndex(keys, options);
    if (index.keys.some(([, direction]) => direction === 'text')) {
      await translated(() =>
        this.native.createIndex(Object.fromEntries(index.keys.map(([path]) => [subset.pathKey(path), 'text'])), {
          name: index.name,
          default_language: 'english',
          language_override: '_language',
        }),
      );
      return;
    }
    const paths = index.keys.map(([path]) => path).filter((path) => subset.pathKey(path) !== '_id');
    // PostgreSQL indexes only single values; refuse to index data it would refuse.
    const conditions = paths.flatMap((path) => [
      ...path.map((_, i) => ({ [subset.pathKey(path.slice(0, i + 1))]: { $type: 'array' } })),
      { [subset.pathKey(path)]: { $type: 'object' } },
    ]);
    if (conditions.length > 0) {
      const offending = await this.native.findOne({ $or: conditions });
      if (offending) {
        const path = paths.find((candidate) => {
          try {
            sortValue(offending, candidate);
            return false;
          } catch {
            return true;
          }
        });
        throw unsortable(path ?? paths[0] ?? []);
      }
    }
    await translated(() =>
      this.native.createIndex(Object.fromEntries(index.keys.map(([path, direction]) => [subset.pathKey(path), direction])), {
        unique: index.unique,
        name: index.name,
      }),
    );
    this.indexedPaths = null;
  }

  async drop(): Promise<void> {
    try {
      await this.native.drop();
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND)) throw error;
    }
    this.indexedPaths = null;
  }

  private async loadIndexedPaths(): Promise<Path[]> {
    if (this.indexedPaths) return this.indexedPaths;
    let specs: MongoDocument[] = [];
    try {
      specs = await this.native.listIndexes().toArray();
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND)) throw error;
    }
    // A text index lists _fts and _ftsx as its keys: its fields may hold anything.
    const keys = specs
      .flatMap((spec) => Object.keys((spec.key ?? {}) as Record<string, unknown>))
      .filter((key) => key !== '_id' && !key.startsWith('_fts'));
    this.indexedPaths = [...new Set(keys)].map((key) => key.split('.'));
    return this.indexedPaths;
  }

  /**
   * The PostgreSQL adapter fails when an update leaves an array or embedded
   * document at an indexed path; decide the same from the update alone.
   */
  private async checkIndexedUpdate(operations: UpdateOperation[]): Promise<void> {
    const indexed = await this.loadIndexedPaths();
    for (const operation of operations) {
      for (const path of indexed) {
        const target = operation.path;
        const common = Math.min(target.length, path.length);
        if (target.slice(0, common).some((segment, i) => segment !== path[i])) continue;
        if (operation.op !== 'set') continue;
        if (target.length > path.length) throw unsortable(path);
        sortValue({ value: operation.value }, ['value', ...path.slice(target.length)]);
      }
    }
  }
}

function toResult(result: { matchedCount: number; modifiedCount: number; upsertedId: unknown }): UpdateResult {
  return {
    matchedCount: result.matchedCount,
    modifiedCount: result.modifiedCount,
    upsertedId: result.upsertedId === null || result.upsertedId === undefined ? null : String(result.upsertedId),
  };
}

async function translated<R>(run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) throw new DuplicateKeyError(error.message);
    if (error instanceof MongoServerError && error.code === INDEX_NOT_FOUND)
      throw new UnsupportedQueryError(`$text needs a text index: ${error.message}`);
    if (error instanceof MongoServerError && typeof error.code === 'number' && NOT_APPLICABLE_CODES.has(error.code)) {
      throw new UpdateNotApplicableError(error.message);
    }
    throw error;
  }
}

/**
 * The filter for MongoDB. A $text condition goes to the top level, where MongoDB is sure to take it (the port allows it
 * anywhere but under $or, so it is always a conjunct). Each word is a phrase, so that every word must appear.
 */
function toMongoFilter(predicate: Predicate): MongoDocument {
  const text = textOf(predicate);
  if (!text) return toMongoPredicate(predicate);
  if (text.words.length === 0) return { _id: { $in: [] } };
  const $text = {
    $search: text.words.map((word) => `"${word}"`).join(' '),
    $language: 'english',
    $caseSensitive: false,
    $diacriticSensitive: false,
  };
  const rest = withoutText(predicate);
  return rest ? { $text, $and: [toMongoPredicate(rest)] } : { $text };
}

function textOf(predicate: Predicate): Extract<Predicate, { kind: 'text' }> | null {
  if (predicate.kind === 'text') return predicate;
  if (predicate.kind !== 'and') return null;
  for (const item of predicate.items) {
    const found = textOf(item);
    if (found) return found;
  }
  return null;
}

function withoutText(predicate: Predicate): Predicate | null {
  if (predicate.kind === 'text') return null;
  if (predicate.kind !== 'and') return predicate;
  const items = predicate.items.map(withoutText).filter((item): item is Predicate => item !== null);
  return items.length > 0 ? { kind: 'and', items } : null;
}

function toMongoPredicate(predicate: Predicate): MongoDocument {
  switch (predicate.kind) {
    case 'text':
      throw new UnsupportedQueryError('$text is only supported among the conditions of the top level and of $and');
    case 'and': {
      // The usual shape, { a: ..., b: { $gt, $lt } }, as one object (what upserts and the planner expect to see).
      const merged: Record<string, MongoDocument> = {};
      for (const item of predicate.items) {
        if (item.kind !== 'field') return { $and: predicate.items.map(toMongoPredicate) };
        const key = subset.pathKey(item.path);
        const condition = toMongoCondition([item.condition]);
        if (Object.keys(condition).some((operator) => merged[key]?.[operator] !== undefined))
          return { $and: predicate.items.map(toMongoPredicate) };
        merged[key] = { ...merged[key], ...condition };
      }
      return merged;
    }
    case 'or':
      return { $or: predicate.items.map(toMongoPredicate) };
    case 'field':
      return { [subset.pathKey(predicate.path)]: toMongoCondition([predicate.condition]) };
  }
}

function toMongoCondition(conditions: Condition[]): MongoDocument {
  const condition: MongoDocument = {};
  for (const item of conditions) {
    switch (item.op) {
      case 'in':
      case 'nin':
        condition[`$${item.op}`] = item.values;
        break;
      case 'regex':
        condition.$regex = item.regex.source;
        condition.$options = item.regex.options;
        break;
      default:
        condition[`$${item.op}`] = item.value;
    }
  }
  return condition;
}

function toMongoUpdate(operations: UpdateOperation[]): MongoDocument {
  const update: Record<string, Record<string, unknown>> = {};
  const put = (operator: string, path: Path, value: unknown) => {
    update[operator] ??= {};
    update[operator][subset.pathKey(path)] = value;
  };
  for (const operation of operations) {
    switch (operation.op) {
      case 'unset':
        put('$unset', operation.path, '');
        break;
      case 'set':
        put('$set', operation.path, operation.value);
    }
  }
  // An update whose fields were all undefined is a no-op; MongoDB refuses an empty update.
  return Object.keys(update).length > 0 ? update : { $set: {} };
}
