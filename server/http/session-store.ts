/**
 * The session store for @fastify/session, in Redis. Each member's session ids are
 * also kept in a set, so suspending a member ends every session of theirs at once.
 * Reads go through the process's auth cache; ending sessions tells every process.
 */
import type { Redis } from 'ioredis';
import type { Session } from 'fastify';
import type { AuthCache } from './auth-cache';

type Callback = (error?: unknown) => void;

/** One of a member's open sessions, as their account page lists them. */
export interface OpenMemberSession {
  sessionId: string;
  /** Epoch ms; null for sessions begun before it was recorded. */
  signedInAt: number | null;
  lastSeenAt: number | null;
  userAgent: string | null;
}

/** A session's last use is written at most this often per process, so browsing costs no Redis write per request. */
const SEEN_EVERY_MS = 60_000;
/** Sessions whose last write each process remembers; past this it starts over (a few extra writes, nothing lost). */
const SEEN_MAX_ENTRIES = 50_000;

export interface MemberSessions {
  /** Ends every open session of a member; returns how many ended. */
  endAll(memberId: string): Promise<number>;
  /** Ends every open session of a member but `keepSessionId`; returns how many ended. */
  endOthers(memberId: string, keepSessionId: string): Promise<number>;
  /** Ends one session, if it is the member's; false when it was not theirs or had ended already. */
  end(memberId: string, sessionId: string): Promise<boolean>;
  /** The member's open sessions, oldest sign-in first. */
  list(memberId: string): Promise<OpenMemberSession[]>;
  /** A signed-in request came with this session now. */
  seen(memberId: string, sessionId: string): void;
  /** A member's role or standing changed: every process reads them afresh on its next request. */
  standingChanged(): Promise<void>;
}

export function createSessionStore(redis: Redis, prefix: string, ttlSeconds: number, cache: AuthCache) {
  const key = (id: string) => `${prefix}:sess:${id}`;
  const memberKey = (memberId: string) => `${prefix}:member-sessions:${memberId}`;
  /** Hash of session id → when it was last used (epoch ms), per member. */
  const seenKey = (memberId: string) => `${prefix}:member-sessions-seen:${memberId}`;
  const lastWritten = new Map<string, number>();

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

  /** Ends these sessions of the member's; the epoch moves so that no process goes on remembering them. */
  async function end(memberId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await redis
      .multi()
      .del(...ids.map(key))
      .srem(memberKey(memberId), ...ids)
      .hdel(seenKey(memberId), ...ids)
      .exec();
    for (const id of ids) lastWritten.delete(id);
    await cache.invalidate();
  }

  const memberSessions: MemberSessions = {
    async endAll(memberId) {
      const ids = await redis.smembers(memberKey(memberId));
      if (ids.length > 0) await redis.del(...ids.map(key));
      await redis.del(memberKey(memberId), seenKey(memberId));
      await cache.invalidate();
      return ids.length;
    },
    async endOthers(memberId, keepSessionId) {
      const others = (await redis.smembers(memberKey(memberId))).filter((id) => id !== keepSessionId);
      await end(memberId, others);
      return others.length;
    },
    async end(memberId, sessionId) {
      if (!(await redis.sismember(memberKey(memberId), sessionId))) return false;
      await end(memberId, [sessionId]);
      return true;
    },
    async list(memberId) {
      const ids = await redis.smembers(memberKey(memberId));
      if (ids.length === 0) return [];
      const [jsons, seen] = await Promise.all([redis.mget(...ids.map(key)), redis.hmget(seenKey(memberId), ...ids)]);
      const open: OpenMemberSession[] = [];
      const gone: string[] = [];
      ids.forEach((sessionId, index) => {
        const json = jsons[index];
        const session = json ? (JSON.parse(json) as { memberId?: string; signedInAt?: number; userAgent?: string }) : null;
        // Expired sessions leave their ids in the set; a session id reused by someone else is not this member's.
        if (session?.memberId !== memberId) return void gone.push(sessionId);
        const lastSeen = Number(seen[index]);
        open.push({
          sessionId,
          signedInAt: session.signedInAt ?? null,
          lastSeenAt: Number.isFinite(lastSeen) && lastSeen > 0 ? lastSeen : null,
          userAgent: session.userAgent ?? null,
        });
      });
      if (gone.length > 0)
        await redis
          .multi()
          .srem(memberKey(memberId), ...gone)
          .hdel(seenKey(memberId), ...gone)
          .exec();
      return open.sort((a, b) => (a.signedInAt ?? 0) - (b.signedInAt ?? 0));
    },
    seen(memberId, sessionId) {
      const now = Date.now();
      if (now - (lastWritten.get(sessionId) ?? 0) < SEEN_EVERY_MS) return;
      if (lastWritten.size >= SEEN_MAX_ENTRIES) lastWritten.clear();
      lastWritten.set(sessionId, now);
      // Not awaited: the request does not wait for a note of when it came; a lost one only makes "last seen" older.
      redis
        .multi()
        .hset(seenKey(memberId), sessionId, String(now))
        .expire(seenKey(memberId), ttlSeconds)
        .exec()
        .catch(() => lastWritten.delete(sessionId));
    },
    standingChanged: () => cache.invalidate(),
  };

  return { store, memberSessions, memberOf };
}
