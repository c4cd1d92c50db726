/**
 * One page of a projection's work as one unit: the documents it reads and writes by `_id` stay in memory while the
 * page's events are applied, and each changed document is written once, with the page (Collection.savePositioned: one
 * statement per collection). Any other query first writes what the page changed in that collection, so that it reads
 * the page's own changes; on PostgreSQL the whole page, checkpoint included, is one transaction, so a page is applied
 * wholly or not at all.
 *
 * The projections see an ordinary DocumentStore: `applyToDocument` (findOne by _id, then a write conditional on the
 * document read) is answered from memory.
 */
import { DuplicateKeyError } from '../document-store/port';
import type { Collection, Document, DocumentStore, Transaction } from '../document-store/port';
import type { Filter, FindOptions, IndexKeys, IndexOptions, PositionedChanges, Update, UpdateResult } from '../document-store/port';

type Stored = Document & { _position?: number };

/** Documents held between pages, at most: by a replay's memory, and by a live one. */
const HELD_AT_MOST = { complete: 200_000, partial: 5_000 };

/**
 * What a runner knows of a projection's collections between pages, as their only writer (a rebuild's switch, the one
 * other writer, starts it afresh).
 * - 'complete': while it fills collections that were empty when it began (a replay from the start of the log): every id
 *   they hold, and most documents as committed. An id it does not know is not in the collection, so a replay reads
 *   nothing it has not written.
 * - 'partial': live, the documents its last pages read or wrote (the most recently used, up to a bound); an id it does
 *   not hold is read from the store.
 * A query the page cannot follow makes it forget: the documents of that collection after an update or deletion by
 * filter, the collection altogether after an upsert by filter (a partial memory of it starts again empty).
 */
export class Memory {
  /** Per collection: each id it holds, with its document where it is held (true where not); null once forgotten. */
  private readonly collections = new Map<string, Map<string, Stored | true> | null>();
  private held = 0;

  constructor(
    private readonly names: readonly string[],
    readonly kind: 'complete' | 'partial' = 'complete',
  ) {
    for (const name of names) this.collections.set(name, new Map());
  }

  /** The same collections, known live from now on (a replay caught up): the documents held longest go first. */
  live(): Memory {
    return this.kind === 'partial' ? this : new Memory(this.names, 'partial');
  }

  /** The ids (and held documents) of a collection, or null when they are not known. */
  of(name: string) {
    return this.collections.get(name) ?? null;
  }

  /** A document as last committed, where it is held. */
  document(name: string, id: string): Stored | undefined {
    const held = this.of(name)?.get(id);
    return held === true ? undefined : held;
  }

  /** After a commit: what the page read or wrote is the collection's state. */
  remember(name: string, known: ReadonlyMap<string, Known>) {
    const ids = this.of(name);
    if (!ids) return;
    for (const [id, document] of known) {
      if (ids.get(id) !== true && ids.has(id)) this.held--;
      // Partial: each use moves a document to the end, so the least recently used go first.
      if (this.kind === 'partial' || !document) ids.delete(id);
      if (document) {
        ids.set(id, document);
        this.held++;
      }
    }
    if (this.held > HELD_AT_MOST[this.kind]) this.release();
  }

  forgetDocuments(name: string) {
    const ids = this.of(name);
    if (!ids) return;
    if (this.kind === 'partial') ids.clear();
    else for (const [id, document] of ids) if (document !== true) ids.set(id, true);
    this.recount();
  }

  forget(name: string) {
    this.collections.set(name, this.kind === 'partial' ? new Map() : null);
    this.recount();
  }

  /** Lets the documents held longest go: down to half the bound, or (partial) the older half of each collection's. */
  private release() {
    for (const ids of this.collections.values()) {
      if (!ids) continue;
      let letGo = this.kind === 'partial' ? Math.floor(ids.size / 2) : Number.POSITIVE_INFINITY;
      for (const [id, document] of ids) {
        if (letGo-- <= 0 || this.held <= HELD_AT_MOST[this.kind] / 2) break;
        if (document === true) continue;
        if (this.kind === 'partial') ids.delete(id);
        else ids.set(id, true);
        this.held--;
      }
    }
    if (this.kind === 'partial') this.recount();
  }

  private recount() {
    this.held = 0;
    for (const ids of this.collections.values()) if (ids) for (const document of ids.values()) if (document !== true) this.held++;
  }
}

/** A document as the page knows it: null when known not to exist. */
type Known = Stored | null;

/** The `_id` a filter names, when it names nothing else but, optionally, the `_position` of the document read. */
function addressed(filter: Filter): { id: string; position?: number } | null {
  const keys = Object.keys(filter);
  const id = filter._id;
  if (typeof id !== 'string') return null;
  if (keys.length === 1) return { id };
  const position = filter._position;
  if (keys.length === 2 && typeof position === 'number') return { id, position };
  return null;
}

const matches = (known: Known, wanted: { position?: number }) =>
  known !== null && (wanted.position === undefined || known._position === wanted.position);

class PageCollection<T extends Document> implements Collection<T> {
  /** Documents read or written in this page, by _id. */
  private readonly known = new Map<string, Known>();
  /** The ids changed in this page and not yet written, with the position of the event that removed each deleted one. */
  private readonly changed = new Map<string, number>();

  constructor(
    /** The collection in the store, reached on first need: a page that touches nothing opens no transaction. */
    private readonly inner: () => Promise<Collection<T>>,
    readonly name: string,
    /** False: every call goes straight to the store (for runners whose writes must be seen at once). */
    private readonly cached: boolean,
    private readonly memory: Memory | null,
  ) {}

  private address(filter: Filter) {
    return this.cached ? addressed(filter) : null;
  }

  private async read(id: string): Promise<Known> {
    // One lookup: a known document is never undefined (null when it does not exist).
    const known = this.known.get(id);
    if (known !== undefined) return known;
    const remembered = this.memory?.of(this.name);
    if (remembered) {
      const document = remembered.get(id);
      // Not held: not in the collection, where the memory knows every id; else read from the store.
      if (document !== true && (document !== undefined || this.memory!.kind === 'complete')) {
        this.known.set(id, document ?? null);
        return document ?? null;
      }
    }
    const found = (await (await this.inner()).findOne({ _id: id })) as Known;
    // Read while a write of this page was pending? Then it is known already; keep that.
    if (!this.known.has(id)) this.known.set(id, found);
    return this.known.get(id)!;
  }

  /** The document as this page or the memory holds it, without reading the store. */
  private held(id: string): Known | undefined {
    const known = this.known.get(id);
    return known !== undefined ? known : this.memory?.document(this.name, id);
  }

  /** Whether the page or the memory holds this document at this position or later. */
  private newer(id: string, position: number) {
    return (this.held(id)?._position ?? Number.NEGATIVE_INFINITY) >= position;
  }

  private put(document: Stored) {
    this.known.set(document._id, document);
    this.changed.set(document._id, document._position ?? 0);
  }

  get hasChanges() {
    return this.changed.size > 0;
  }

  /** Writes what this page changed, in one statement per kind of change. */
  async flush(): Promise<void> {
    if (this.changed.size === 0) return;
    const put: T[] = [];
    const remove: { _id: string; _position: number }[] = [];
    for (const [id, position] of this.changed) {
      const document = this.known.get(id);
      if (document) put.push(document as T);
      else remove.push({ _id: id, _position: position });
    }
    this.changed.clear();
    await (await this.inner()).savePositioned({ put, remove });
  }

  /** Before a query the page cannot answer from memory: the store must hold the page's changes. */
  /**
   * `changes`: what the query may do to the collection. 'some' (updates, deletions) leaves the documents the page holds
   * stale, but adds no id; 'insert' (an upsert by filter) may add an id the page does not know of.
   */
  private async through<R>(run: (inner: Collection<T>) => Promise<R>, changes: 'none' | 'some' | 'insert' = 'none'): Promise<R> {
    await this.flush();
    const result = await run(await this.inner());
    if (changes !== 'none') this.known.clear();
    if (changes === 'some') this.memory?.forgetDocuments(this.name);
    if (changes === 'insert') this.memory?.forget(this.name);
    return result;
  }

  /** After the page's commit: what it read and wrote is the collection's state. */
  remember() {
    this.memory?.remember(this.name, this.known);
  }

  async findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null> {
    const target = this.address(filter);
    if (!target) return this.through((inner) => inner.findOne(filter, options));
    const known = await this.read(target.id);
    return matches(known, target) ? (known as T) : null;
  }

  find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return this.through((inner) => inner.find(filter, options));
  }

  countDocuments(filter?: Filter): Promise<number> {
    return this.through((inner) => inner.countDocuments(filter));
  }

  async insertOne(document: T): Promise<void> {
    if (!this.cached) return (await this.inner()).insertOne(document);
    if ((await this.read(document._id)) !== null) throw new DuplicateKeyError(`${this.name}: _id ${document._id} exists`);
    this.put(document);
  }

  async insertMany(documents: T[]): Promise<void> {
    if (!this.cached) return (await this.inner()).insertMany(documents);
    // MongoDB's ordered insertMany keeps the documents before the first duplicate.
    for (const document of documents) await this.insertOne(document);
  }

  async replaceOne(filter: Filter, document: T, options?: { upsert?: boolean }): Promise<UpdateResult> {
    const target = this.address(filter);
    if (!target || target.id !== document._id)
      return this.through((inner) => inner.replaceOne(filter, document, options), options?.upsert ? 'insert' : 'some');
    const known = await this.read(target.id);
    if (matches(known, target)) {
      this.put(document);
      return { matchedCount: 1, modifiedCount: 1, upsertedId: null };
    }
    if (!options?.upsert) return { matchedCount: 0, modifiedCount: 0, upsertedId: null };
    if (known !== null) throw new DuplicateKeyError(`${this.name}: _id ${document._id} exists`);
    this.put(document);
    return { matchedCount: 0, modifiedCount: 0, upsertedId: document._id };
  }

  async deleteOne(filter: Filter): Promise<number> {
    const target = this.address(filter);
    if (!target) return this.through((inner) => inner.deleteOne(filter), 'some');
    const known = await this.read(target.id);
    if (!matches(known, target)) return 0;
    this.known.set(target.id, null);
    // Guarded by the position of the document it removes: a later write of the same document is not undone.
    this.changed.set(target.id, (known!._position ?? 0) + 1);
    return 1;
  }

  updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult> {
    return this.through((inner) => inner.updateOne(filter, update, options), options?.upsert ? 'insert' : 'some');
  }

  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.through((inner) => inner.updateMany(filter, update), 'some');
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.through((inner) => inner.deleteMany(filter), 'some');
  }

  createIndex(keys: IndexKeys, options?: IndexOptions): Promise<void> {
    return this.through((inner) => inner.createIndex(keys, options));
  }

  /**
   * Writes each document, and removes each one named, unless this page or the memory knows it as new already; the
   * store's own guard does the same for what they do not know. No read: for documents written whole (a log entry).
   */
  async savePositioned({ put, remove }: PositionedChanges<T>): Promise<void> {
    if (!this.cached) return (await this.inner()).savePositioned({ put, remove });
    for (const document of put) if (!this.newer(document._id, (document as Stored)._position ?? 0)) this.put(document);
    for (const { _id, _position } of remove)
      if (!this.newer(_id, _position)) {
        this.known.set(_id, null);
        this.changed.set(_id, _position);
      }
  }

  drop(): Promise<void> {
    this.changed.clear();
    this.memory?.forget(this.name);
    return this.through((inner) => inner.drop(), 'some');
  }
}

export interface Page extends DocumentStore {
  /** Writes every change of the page still in memory. */
  flush(): Promise<void>;
  /** Once the page is committed: the runner's memory takes what the page read and wrote. */
  remember(): void;
  /** Whether the page changed anything not yet written. */
  hasChanges(): boolean;
}

/**
 * A page over the store (or a transaction of it) that `store` gives on first need, under collection names mapped by
 * `rename` (a rebuild writes beside the live collections); with `cached` false, a page that only notes what it touches.
 */
export function openPage(
  store: () => Promise<DocumentStore | Transaction>,
  options: { rename?: (name: string) => string; cached?: boolean; memory?: Memory | null } = {},
): Page {
  const { rename = (name: string) => name, cached = true, memory = null } = options;
  const collections = new Map<string, PageCollection<Document>>();
  return {
    collection<T extends Document = Document>(name: string): Collection<T> {
      let collection = collections.get(name);
      if (!collection) {
        const renamed = rename(name);
        collection = new PageCollection(async () => (await store()).collection(renamed), name, cached, cached ? memory : null);
        collections.set(name, collection);
      }
      return collection as unknown as Collection<T>;
    },
    async flush() {
      for (const collection of collections.values()) await collection.flush();
    },
    remember() {
      for (const collection of collections.values()) collection.remember();
    },
    hasChanges: () => [...collections.values()].some((collection) => collection.hasChanges),
    listCollections: () => Promise.reject(new Error('a page lists no collections')),
    replaceCollection: () => Promise.reject(new Error('a page replaces no collections')),
    close: async () => undefined,
  };
}
