/**
 * Who is signed in, remembered by each API process (docs/architecture.md#sessions): the sessions it has read and
 * the members behind them, so a signed-in request costs one Redis read instead of a session read, a session write
 * and a member query. That one read is the auth epoch, a counter that everything that ends a session or changes
 * who a member is (sign-out, suspension, role change) increments before it answers; a process that sees a new
 * epoch forgets everything it remembered, so on every process the next request already meets the change.
 */
import type { Redis } from 'ioredis';
import type { Actor } from '../../shared/domain';

/** How many sessions and members a process remembers; past this the oldest are forgotten first. */
const MAX_ENTRIES = 50_000;

class BoundedMap<V> extends Map<string, V> {
  override set(key: string, value: V) {
    if (!this.has(key) && this.size >= MAX_ENTRIES) this.delete(this.keys().next().value!);
    return super.set(key, value);
  }
}

export interface AuthCache {
  /** Brings this process's memory up to date with the epoch: once per request, before reading from it. */
  sync(): Promise<void>;
  /** A session's JSON as the store holds it, or null when there is none. */
  session(id: string, load: () => Promise<string | null>): Promise<string | null>;
  /** Remembers a session this process has just written. */
  wroteSession(id: string, json: string): void;
  /** The member a session belongs to, as a signed-in actor, or null when suspended or gone. */
  actor(memberId: string, load: () => Promise<Actor | null>): Promise<Actor | null>;
  /** After a sign-out, suspension or role change, before answering: every process forgets what it remembered. */
  invalidate(): Promise<void>;
}

export function createAuthCache(redis: Redis, prefix: string): AuthCache {
  const epochKey = `${prefix}:auth-epoch`;
  let epoch: string | null = null;
  const sessions = new BoundedMap<string | null>();
  const actors = new BoundedMap<Actor | null>();
  const forget = (seen: string | null) => {
    sessions.clear();
    actors.clear();
    epoch = seen;
  };
  /** What was read is remembered only if no change was seen meanwhile: a read begun before it may be stale. */
  async function lookup<V>(map: Map<string, V>, key: string, load: () => Promise<V>): Promise<V> {
    if (map.has(key)) return map.get(key)!;
    const readAt = epoch;
    const value = await load();
    if (epoch === readAt) map.set(key, value);
    return value;
  }
  return {
    async sync() {
      const seen = await redis.get(epochKey);
      if (seen !== epoch) forget(seen);
    },
    session: (id, load) => lookup(sessions, id, load),
    wroteSession: (id, json) => sessions.set(id, json),
    actor: (memberId, load) => lookup(actors, memberId, load),
    async invalidate() {
      forget(String(await redis.incr(epochKey)));
    },
  };
}
