/**
 * The keys that seal personal data in the event log: one per stream that holds some, owned by a member (or by no
 * one, for a guest's subscription). Kept in the document store beside the read models but owned by no projection,
 * so a rebuild never drops them; a destroyed key stays as a tombstone (no key), so that a stream whose data was
 * erased is never sealed again with a new key.
 *
 * Each process keeps the keys it used lately for KEY_CACHE_MS. A process that did not see the erasure may go on
 * reading a destroyed key's data for that long; the projections see the erasure event itself and forget at once.
 */
import { randomBytes } from 'node:crypto';
import { DuplicateKeyError, type DocumentStore } from '../document-store/port';
import type { KeyScope } from '../../shared/personal-data';

export const PERSONAL_DATA_KEYS = 'personal_data_keys';
export const KEY_CACHE_MS = 30_000;
const CACHE_LIMIT = 10_000;
/** Keys read with a missing one during a replay. */
const READ_AHEAD = 500;

type KeyDocument = {
  /** The stream's name. */
  _id: string;
  owner: string | null;
  scope: KeyScope;
  /** AES-256 key, base64; null once destroyed. */
  key: string | null;
  createdAt: string;
  destroyedAt?: string;
};

export type StreamKey = { key: Buffer | null; owner: string | null };

export class PersonalDataErasedError extends Error {
  override readonly name = 'PersonalDataErasedError';
  constructor(readonly streamName: string) {
    super(`Stream ${streamName}: its personal data was erased; nothing personal can be added to it`);
  }
}

export type PersonalDataKeys = ReturnType<typeof createPersonalDataKeys>;

export function createPersonalDataKeys(store: DocumentStore, now: () => Date = () => new Date()) {
  const keys = store.collection<KeyDocument>(PERSONAL_DATA_KEYS);
  const cache = new Map<string, StreamKey & { until: number }>();
  let indexed: Promise<void> | null = null;
  const indexes = () =>
    (indexed ??= Promise.all([keys.createIndex({ owner: 1 }), keys.createIndex({ createdAt: 1, _id: 1 })]).then(() => undefined));

  const toStreamKey = (document: KeyDocument): StreamKey => ({
    key: document.key === null ? null : Buffer.from(document.key, 'base64'),
    owner: document.owner,
  });

  function remember(streamName: string, streamKey: StreamKey) {
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(streamName, { ...streamKey, until: Date.now() + KEY_CACHE_MS });
    return streamKey;
  }

  /**
   * The stream's key: a key, a tombstone (key null: destroyed), or null when the stream never had one. `readAhead`
   * (a replay, which meets streams about in the order their keys were made): the keys made next are read with it.
   */
  async function find(streamName: string, readAhead = false): Promise<StreamKey | null> {
    const cached = cache.get(streamName);
    if (cached && cached.until > Date.now()) return cached;
    const document = await keys.findOne({ _id: streamName });
    if (!document) return null;
    if (readAhead) {
      await indexes();
      const next = await keys.find({ createdAt: { $gte: document.createdAt } }, { sort: { createdAt: 1, _id: 1 }, limit: READ_AHEAD });
      for (const other of next) remember(other._id, toStreamKey(other));
    }
    return remember(streamName, toStreamKey(document));
  }

  return {
    find,

    /**
     * The stream's key, made now for its owner when it has none yet; throws when it was destroyed. `newStream`: the
     * append starts the stream, so the key is most likely new too and is inserted without looking first.
     */
    async forAppend(streamName: string, owner: { memberId: string | null; scope: KeyScope }, newStream = false): Promise<Buffer> {
      let found = newStream ? null : await find(streamName);
      if (!found) {
        await indexes();
        const document: KeyDocument = {
          _id: streamName,
          owner: owner.memberId,
          scope: owner.scope,
          key: randomBytes(32).toString('base64'),
          createdAt: now().toISOString(),
        };
        try {
          await keys.insertOne(document);
          found = remember(streamName, toStreamKey(document));
        } catch (error) {
          // Another process made it first: use theirs.
          if (!(error instanceof DuplicateKeyError)) throw error;
          cache.delete(streamName);
          found = await find(streamName);
        }
      }
      if (!found?.key) throw new PersonalDataErasedError(streamName);
      return found.key;
    },

    /** Destroys one stream's key, whoever owns it (a guest's subscription of an erased member's address). Idempotent. */
    async destroyStream(streamName: string): Promise<void> {
      await keys.updateOne({ _id: streamName, key: { $ne: null } }, { $set: { key: null, destroyedAt: now().toISOString() } });
      cache.delete(streamName);
    },

    /** Destroys the member's keys (of their account; of their content too when asked). Idempotent. */
    async destroy(memberId: string, content: boolean): Promise<void> {
      const scopes: KeyScope[] = content ? ['account', 'content'] : ['account'];
      await keys.updateMany(
        { owner: memberId, scope: { $in: scopes }, key: { $ne: null } },
        { $set: { key: null, destroyedAt: now().toISOString() } },
      );
      for (const [streamName, cached] of cache) if (cached.owner === memberId) cache.delete(streamName);
    },
  };
}
