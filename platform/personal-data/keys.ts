/**
 * The keys that seal personal data in the event log: one per stream that holds some, owned by a member (or by no
 * one, for a guest's subscription). Kept in the document store beside the read models but owned by no projection,
 * so a rebuild never drops them; a destroyed key stays as a tombstone (no key), so that a stream whose data was
 * erased is never sealed again with a new key.
 *
 * Each process keeps the keys it used lately for KEY_CACHE_MS. A process that did not see the erasure may go on
 * reading a destroyed key's data for that long; the projections see the erasure event itself and forget at once.
 * The cache keeps the CACHE_LIMIT keys used most recently (lru-cache). A replay reads keys ahead, in the order they
 * were made, into a cache of their own, so that keys read ahead never push out the keys in use (the members' own,
 * met all through the log): with one cache, a log of 300,000 events (31,000 keys) read each key again and again.
 */
import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
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
  const cache = new LRUCache<string, StreamKey>({ max: CACHE_LIMIT, ttl: KEY_CACHE_MS });
  /** Keys read ahead in a replay and not used yet; `frontier`: when the newest of them was made. */
  const ahead = new LRUCache<string, StreamKey>({ max: CACHE_LIMIT, ttl: KEY_CACHE_MS });
  let frontier = '';
  let indexed: Promise<void> | null = null;
  const indexes = () =>
    (indexed ??= Promise.all([keys.createIndex({ owner: 1 }), keys.createIndex({ createdAt: 1, _id: 1 })]).then(() => undefined));

  const toStreamKey = (document: KeyDocument): StreamKey => ({
    key: document.key === null ? null : Buffer.from(document.key, 'base64'),
    owner: document.owner,
  });

  function remember(streamName: string, streamKey: StreamKey) {
    cache.set(streamName, streamKey);
    return streamKey;
  }

  /**
   * The stream's key: a key, a tombstone (key null: destroyed), or null when the stream never had one. `readAhead`
   * (a replay, which meets streams about in the order their keys were made): a key made after every key read ahead so
   * far is read with the keys made next; an older one (a stream met again) is read alone.
   */
  async function find(streamName: string, readAhead = false): Promise<StreamKey | null> {
    const cached = cache.get(streamName);
    if (cached) return cached;
    const early = ahead.get(streamName);
    if (early) {
      // In use from now on, for what is left of the time it may be kept.
      cache.set(streamName, early, { ttl: ahead.getRemainingTTL(streamName) });
      ahead.delete(streamName);
      return early;
    }
    const document = await keys.findOne({ _id: streamName });
    if (!document) return null;
    if (readAhead && document.createdAt >= frontier) {
      await indexes();
      const next = await keys.find({ createdAt: { $gte: document.createdAt } }, { sort: { createdAt: 1, _id: 1 }, limit: READ_AHEAD });
      for (const other of next) if (other._id !== streamName && !cache.has(other._id)) ahead.set(other._id, toStreamKey(other));
      frontier = next.at(-1)?.createdAt ?? frontier;
    }
    return remember(streamName, toStreamKey(document));
  }

  /** Forgets a stream's key wherever this process keeps it. */
  function forget(streamName: string) {
    cache.delete(streamName);
    ahead.delete(streamName);
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
          forget(streamName);
          found = await find(streamName);
        }
      }
      if (!found?.key) throw new PersonalDataErasedError(streamName);
      return found.key;
    },

    /** Destroys one stream's key, whoever owns it (a guest's subscription of an erased member's address). Idempotent. */
    async destroyStream(streamName: string): Promise<void> {
      await keys.updateOne({ _id: streamName, key: { $ne: null } }, { $set: { key: null, destroyedAt: now().toISOString() } });
      forget(streamName);
    },

    /** Destroys the member's keys (of their account; of their content too when asked). Idempotent. */
    async destroy(memberId: string, content: boolean): Promise<void> {
      const scopes: KeyScope[] = content ? ['account', 'content'] : ['account'];
      await keys.updateMany(
        { owner: memberId, scope: { $in: scopes }, key: { $ne: null } },
        { $set: { key: null, destroyedAt: now().toISOString() } },
      );
      for (const kept of [cache, ahead])
        for (const [streamName, streamKey] of [...kept.entries()]) if (streamKey.owner === memberId) kept.delete(streamName);
    },
  };
}
