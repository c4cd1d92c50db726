/**
 * The session store for @fastify/session, in Redis. Each member's session ids are
 * also kept in a set, so suspending a member ends every session of theirs at once.
 */
import type { Redis } from 'ioredis';
import type { Session } from 'fastify';

type Callback = (error?: unknown) => void;

export interface MemberSessions {
  /** Ends every open session of a member; returns how many ended. */
  endAll(memberId: string): Promise<number>;
}

export function createSessionStore(redis: Redis, prefix: string, ttlSeconds: number) {
  const key = (id: string) => `${prefix}:sess:${id}`;
  const memberKey = (memberId: string) => `${prefix}:member-sessions:${memberId}`;

  const store = {
    get(id: string, callback: (error: unknown, session?: Session | null) => void) {
      redis.get(key(id)).then(
        (json) => callback(null, json ? (JSON.parse(json) as Session) : null),
        (error: unknown) => callback(error),
      );
    },
    set(id: string, session: Session, callback: Callback) {
      const memberId = (session as { memberId?: string }).memberId;
      const write = redis.multi().set(key(id), JSON.stringify(session), 'EX', ttlSeconds);
      if (memberId) write.sadd(memberKey(memberId), id).expire(memberKey(memberId), ttlSeconds);
      write.exec().then(() => callback(), callback);
    },
    destroy(id: string, callback: Callback) {
      redis.del(key(id)).then(() => callback(), callback);
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
      return ids.length;
    },
  };

  return { store, memberSessions, memberOf };
}
