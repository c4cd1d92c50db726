/**
 * Who is online, across every API process. Each process counts its own sockets
 * per member in memory and keeps one Redis entry per (process, member) with an
 * open socket, refreshed by a heartbeat. No process ever changes another's
 * entries, so there is no cross-process read-modify-write to race, and the
 * entries of a process that dies without closing age out within a minute
 * instead of keeping its members online for ever.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

export type PresenceStatus = 'online' | 'away' | 'offline';

export const HEARTBEAT_MS = 20_000;
const ONLINE_WITHIN_MS = 60_000;
const AWAY_WITHIN_MS = 15 * 60_000;

export interface Presence {
  connected(memberId: string): Promise<void>;
  disconnected(memberId: string): Promise<void>;
  /** Marks this process's connected members as still here; call every HEARTBEAT_MS. */
  heartbeat(): Promise<void>;
  /** Members with an open socket on a process that has been heard from within the last minute. */
  online(): Promise<string[]>;
  /** Members seen within the last 15 minutes who are not online now. */
  away(): Promise<string[]>;
  statuses(memberIds: string[]): Promise<Map<string, PresenceStatus>>;
}

export function createPresence(redis: Redis, prefix: string, now: () => number = Date.now): Presence {
  /** Sorted set of `<process>|<memberId>` → last heartbeat (ms). */
  const sockets = `${prefix}:presence:sockets`;
  /** Sorted set of memberId → last time seen connected or leaving (ms), for "away". */
  const seen = `${prefix}:presence:seen`;
  const processId = randomUUID();
  const entry = (memberId: string) => `${processId}|${memberId}`;
  const memberOf = (socketsEntry: string) => socketsEntry.slice(socketsEntry.indexOf('|') + 1);
  const open = new Map<string, number>();

  async function onlineIds(at: number): Promise<Set<string>> {
    return new Set((await redis.zrangebyscore(sockets, at - ONLINE_WITHIN_MS, '+inf')).map(memberOf));
  }

  return {
    async connected(memberId) {
      const count = (open.get(memberId) ?? 0) + 1;
      open.set(memberId, count);
      const at = now();
      const write = redis.multi().zadd(seen, at, memberId);
      if (count === 1) write.zadd(sockets, at, entry(memberId));
      await write.exec();
    },
    async disconnected(memberId) {
      const count = (open.get(memberId) ?? 1) - 1;
      const write = redis.multi().zadd(seen, now(), memberId);
      if (count > 0) {
        open.set(memberId, count);
      } else {
        open.delete(memberId);
        write.zrem(sockets, entry(memberId));
      }
      await write.exec();
    },
    async heartbeat() {
      const at = now();
      const write = redis.multi();
      if (open.size > 0) {
        const ids = [...open.keys()];
        write.zadd(sockets, ...ids.flatMap((id) => [at, entry(id)]));
        write.zadd(seen, ...ids.flatMap((id) => [at, id]));
      }
      // Whatever dead processes left behind, and members gone longer than "away", would otherwise accumulate.
      write.zremrangebyscore(sockets, '-inf', at - ONLINE_WITHIN_MS);
      write.zremrangebyscore(seen, '-inf', at - AWAY_WITHIN_MS);
      await write.exec();
    },
    async online() {
      return [...(await onlineIds(now()))];
    },
    async away() {
      const at = now();
      const [online, seenLately] = await Promise.all([onlineIds(at), redis.zrangebyscore(seen, at - AWAY_WITHIN_MS, '+inf')]);
      return seenLately.filter((id) => !online.has(id));
    },
    async statuses(memberIds) {
      const result = new Map<string, PresenceStatus>();
      if (memberIds.length === 0) return result;
      const at = now();
      const [online, scores] = await Promise.all([onlineIds(at), redis.zmscore(seen, ...memberIds)]);
      memberIds.forEach((id, i) => {
        const lastSeen = scores[i] === null || scores[i] === undefined ? null : Number(scores[i]);
        if (online.has(id)) result.set(id, 'online');
        else if (lastSeen !== null && at - lastSeen <= AWAY_WITHIN_MS) result.set(id, 'away');
        else result.set(id, 'offline');
      });
      return result;
    },
  };
}
