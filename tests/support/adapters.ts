/**
 * Every adapter of the two ports, as the tests open them: PostgreSQL always (a fresh database each time),
 * KurrentDB when KURRENTDB_URL is set and MongoDB when MONGODB_URL is set (each a fresh MongoDB database; a
 * KurrentDB server is shared, so tests that run on it name their streams uniquely and expect others' events).
 */
import { randomBytes } from 'node:crypto';
import type { EventStore } from '../../platform/event-store/port';
import type { DocumentStore } from '../../platform/document-store/port';
import { createPostgresEventStore } from '../../platform/event-store/postgres';
import { connectKurrentDbEventStore } from '../../platform/event-store/kurrentdb';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import { connectMongoDocumentStore } from '../../platform/document-store/mongodb';
import { createTestDatabase } from './database';

export interface Opened<Store> {
  store: Store;
  /** Whether nothing else writes to this store while the test runs (a KurrentDB server is shared). */
  isolated: boolean;
  close(): Promise<void>;
}

export interface Adapter<Store> {
  name: 'PostgreSQL' | 'KurrentDB' | 'MongoDB';
  /** Set when the adapter's server is not configured: its tests are reported as skipped. */
  skip: boolean;
  open(): Promise<Opened<Store>>;
}

const kurrentDbUrl = process.env.KURRENTDB_URL;
const mongoDbUrl = process.env.MONGODB_URL;

/** A store on a fresh PostgreSQL database, dropped when the store is closed. */
async function onTestDatabase<Store extends { close(): Promise<void> }>(make: (url: string) => Promise<Store>): Promise<Opened<Store>> {
  const database = await createTestDatabase();
  const store = await make(database.url);
  return {
    store,
    isolated: true,
    async close() {
      await store.close();
      await database.drop();
    },
  };
}

export const eventStoreAdapters: Adapter<EventStore>[] = [
  {
    name: 'PostgreSQL',
    skip: false,
    open: () => onTestDatabase((url) => createPostgresEventStore({ connectionString: url })),
  },
  {
    name: 'KurrentDB',
    skip: !kurrentDbUrl,
    async open() {
      const store = await connectKurrentDbEventStore(kurrentDbUrl!);
      return { store, isolated: false, close: () => store.close() };
    },
  },
];

export const documentStoreAdapters: Adapter<DocumentStore>[] = [
  {
    name: 'PostgreSQL',
    skip: false,
    open: () => onTestDatabase(async (url) => createPostgresDocumentStore({ connectionString: url })),
  },
  {
    name: 'MongoDB',
    skip: !mongoDbUrl,
    async open() {
      const store = await connectMongoDocumentStore(mongoDbUrl!, `bhc_test_${randomBytes(6).toString('hex')}`);
      return {
        store,
        isolated: true,
        async close() {
          for (const name of await store.listCollections()) await store.collection(name).drop();
          await store.close();
        },
      };
    },
  },
];

/** Every pair of an event store and a document store, as the app can be configured. */
export const backends = eventStoreAdapters.flatMap((events) =>
  documentStoreAdapters.map((documents) => ({
    name: `${events.name} + ${documents.name}`,
    skip: events.skip || documents.skip,
    events,
    documents,
  })),
);
