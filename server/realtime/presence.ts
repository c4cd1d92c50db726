/**
 * Who is online, across every API process: a count of open sockets per member and
 * the time each was last seen, in Redis. A process that dies leaves its counts
 * behind, so "online" also needs a heartbeat within the last minute.
 */
import type { Redis } from 'ioredis';

export type PresenceStatus = 'online' | 'away' | 'offline';

export const HEARTBEAT_MS = 20_000;
const ONLINE_WITHIN_MS = 60_000;
const AWAY_WITHIN_MS = 15 * 60_000;

export interface Presence {
  connected(memberId: string): Promise<void>;
  disconnected(memberId: string): Promise<void>;
  heartbeat(memberIds: string[]): Promise<void>;
  /** Members with an open socket seen within the last minute. */
  online(): Promise<string[]>;
  statuses(memberIds: string[]): Promise<Map<string, PresenceStatus>>;
}

export function createPresence(redis: Redis, prefix: string, now: () => number = Date.now): Presence {
  const sockets = `${prefix}:presence:sockets`;
  const seen = `${prefix}:presence:seen`;
  return {
    async connected(memberId) {
      await redis.multi().hincrby(sockets, memberId, 1).zadd(seen, now(), memberId).exec();
    },
    async disconnected(memberId) {
      const left = await redis.hincrby(sockets, memberId, -1);
      if (left <= 0) await redis.hdel(sockets, memberId);
      await redis.zadd(seen, now(), memberId);
    },
    async heartbeat(memberIds) {
      if (memberIds.length === 0) return;
      const at = now();
      await redis.zadd(seen, ...memberIds.flatMap((id) => [at, id]));
    },
    async online() {
      const [recent, open] = await Promise.all([redis.zrangebyscore(seen, now() - ONLINE_WITHIN_MS, '+inf'), redis.hkeys(sockets)]);
      const connected = new Set(open);
      return recent.filter((id) => connected.has(id));
    },
    async statuses(memberIds) {
      const result = new Map<string, PresenceStatus>();
      if (memberIds.length === 0) return result;
      const [scores, counts] = await Promise.all([redis.zmscore(seen, ...memberIds), redis.hmget(sockets, ...memberIds)]);
      const at = now();
      memberIds.forEach((id, i) => {
        const lastSeen = scores[i] === null || scores[i] === undefined ? null : Number(scores[i]);
        const open = Number(counts[i] ?? 0) > 0;
        if (lastSeen !== null && open && at - lastSeen <= ONLINE_WITHIN_MS) result.set(id, 'online');
        else if (lastSeen !== null && at - lastSeen <= AWAY_WITHIN_MS) result.set(id, 'away');
        else result.set(id, 'offline');
      });
      return result;
    },
  };
}
