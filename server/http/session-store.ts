/**
 * The session store for @fastify/session, in Redis. Each member's session ids are
 * also kept in a set, so suspending a member ends every session of theirs at once.
 * Reads go through the process's auth cache; ending sessions tells every process.
 */
import type { Redis } from 'ioredis';
import type { Session } from 'fastify';
import type { AuthCache } from './auth-cache';

type Callback = (error?: unknown) => void;

export interface MemberSessions {
  /** Ends every open session of a member; returns how many ended. */
  endAll(memberId: string): Promise<number>;
  /** A member's role or standing changed: every process reads them afresh on its next request. */
  standingChanged(): Promise<void>;
}

export function createSessionStore(redis: Redis, prefix: string, ttlSeconds: number, cache: AuthCache) {
  const key = (id: string) => `${prefix}:sess:${id}`;
  const memberKey = (memberId: string) => `${prefix}:member-sessions:${memberId}`;

  const store = {
    // Called once per request that carries a session cookie: the one place each such request meets the epoch.
    get(id: string, callback: (error: unknown, session?: Session | null) => void) {
      cache
        .sync()
        .then(() => cache.session(id, () => redis.get(key(id))))
        .then(
          (json) => callback(null, json ? (JSON.parse(json) as Session) : null),
          (error: unknown) => callback(error),
        );
    },
    set(id: string, session: Session, callback: Callback) {
      const memberId = (session as { memberId?: string }).memberId;
      const json = JSON.stringify(session);
      const write = redis.multi().set(key(id), json, 'EX', ttlSeconds);
      if (memberId) write.sadd(memberKey(memberId), id).expire(memberKey(memberId), ttlSeconds);
      write.exec().then(() => {
        cache.wroteSession(id, json);
        callback();
      }, callback);
    },
    destroy(id: string, callback: Callback) {
      redis
        .del(key(id))
        .then(() => cache.invalidate())
        .then(() => callback(), callback);
    },
  };

  /** The member signed in with this session id, for socket connections. */
  async function memberOf(id: string): Promise<string | null> {
    const json = await redis.get(key(id));
    return json ? ((JSON.parse(json) as { memberId?: string }).memberId ?? null) : null;
  }

  const memberSessions: MemberSessions = {
    async endAll(memberId) {
      const ids = await redis.smembers(memberKey(memberId));
      if (ids.length > 0) await redis.del(...ids.map(key));
      await redis.del(memberKey(memberId));
      await cache.invalidate();
      return ids.length;
    },
    standingChanged: () => cache.invalidate(),
  };

  return { store, memberSessions, memberOf };
}
