/**
 * The document store port: read models as collections of JSON documents, queried
 * with a documented subset of the MongoDB query and update language. Adapters:
 * PostgreSQL JSONB (default) and MongoDB (scale-out). Both pass
 * tests/api/document-store.contract.api.spec.ts; the PostgreSQL adapter is also
 * tested differentially against mingo.
 *
 * The subset:
 * - filters: field equality (dotted paths, arrays match any element), $eq $ne $gt
 *   $gte $lt $lte $in $nin $exists $regex (with $options 'i', 'm', 's') and
 *   top-level or nested $and $or; $text { $search } (below);
 * - updates: $set $unset (the projections write whole values: nothing needs more);
 * - options: sort (1 / -1 on dotted paths), limit, skip, fields (top-level fields to
 *   read, _id always); countDocuments; upsert;
 *   createIndex (ascending/descending keys, unique; or a text index: every key 'text').
 * - full-text search: `{ $text: { $search: 'words' } }` matches the documents that hold every
 *   word of the search (letters and digits; English stemming, so "towers" finds "tower";
 *   case-insensitive; English stop words ignored) in the string fields, or arrays of strings,
 *   of the collection's text index, which must exist. At most one $text per filter, and not
 *   under $or. A search with no word matches nothing. PostgreSQL: tsvector and a GIN index;
 *   MongoDB: its text index, each word a phrase, so that every word must appear.
 * Values are JSON values plus Date. Anything else throws UnsupportedQueryError at once.
 */

export type Scalar = string | number | boolean | null | Date;
export type Value = Scalar | Value[] | { [key: string]: Value | undefined };

export interface Document {
  _id: string;
  [key: string]: unknown;
}

export type Filter = Record<string, unknown>;
export type Update = Partial<Record<'$set' | '$unset', Record<string, unknown>>>;
export type Sort = Record<string, 1 | -1>;
/** Index keys: ascending or descending, or every one 'text' for a text index (one per collection). */
export type IndexKeys = Record<string, 1 | -1 | 'text'>;

export interface FindOptions {
  sort?: Sort;
  limit?: number;
  skip?: number;
  /** Read only these top-level fields of each document (and _id): a list that prints little of large documents. */
  fields?: readonly string[];
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedId: string | null;
}

export interface IndexOptions {
  unique?: boolean;
  name?: string;
}

export interface Collection<T extends Document = Document> {
  readonly name: string;
  findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  countDocuments(filter?: Filter): Promise<number>;
  /** Throws DuplicateKeyError when _id (or a unique index) already exists. */
  insertOne(document: T): Promise<void>;
  insertMany(documents: T[]): Promise<void>;
  /** Replaces the first matching document; with upsert inserts `document` when none matches. */
  replaceOne(filter: Filter, document: T, options?: { upsert?: boolean }): Promise<UpdateResult>;
  /** With upsert and no match, inserts a document built from the filter's equality fields plus the update. */
  updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  createIndex(keys: IndexKeys, options?: IndexOptions): Promise<void>;
  /**
   * Writes a page of a projection's changes in one round trip, each guarded by the `_position` its document carries:
   * a document is stored (inserted, or replacing the stored one) unless the stored one's `_position` is at or past its
   * own, and a removal deletes unless the stored document's `_position` is at or past the removal's. So a page written
   * twice, or after a later one, changes nothing. Removals go first. A unique index other than _id may still refuse a
   * document: DuplicateKeyError.
   */
  savePositioned(changes: PositionedChanges<T>): Promise<void>;
  /** Removes the collection and its indexes; it is recreated empty on next use. */
  drop(): Promise<void>;
}

export interface PositionedChanges<T extends Document> {
  put: T[];
  remove: { _id: string; _position: number }[];
}

/** Collections whose reads and writes form one transaction, until commit or rollback (PostgreSQL). */
export interface Transaction {
  collection<T extends Document = Document>(name: string): Collection<T>;
  replaceCollection(from: string, to: string): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export interface DocumentStore {
  collection<T extends Document = Document>(name: string): Collection<T>;
  /**
   * Puts collection `from` in the place of `to`, indexes included: `to` is dropped and `from` takes its name, in one
   * step for every reader. `from` must exist.
   */
  replaceCollection(from: string, to: string): Promise<void>;
  /**
   * Opens a transaction, where the engine gives them cheaply (PostgreSQL); absent on MongoDB. `durable: false` lets it
   * commit without waiting for the disk: a crash may then lose it whole (never part of it), for work that is redone.
   */
  begin?(options?: { durable?: boolean }): Promise<Transaction>;
  /** Names of the collections that exist. */
  listCollections(): Promise<string[]>;
  close(): Promise<void>;
}

export class UnsupportedQueryError extends Error {
  override readonly name = 'UnsupportedQueryError';
}

/** A string no store can hold (it contains NUL or an unpaired surrogate): refused whatever the query, so it came from input. */
export class UnstorableTextError extends UnsupportedQueryError {}

export class DuplicateKeyError extends Error {
  override readonly name = 'DuplicateKeyError';
}
