/**
 * A share is counted once per visitor and post per day. The day is the site's (TIME_ZONE, the days its digests
 * use) and is part of the Redis key, so a share after midnight counts again whatever the key's expiry; the expiry
 * only frees the key, and lasts the longest a day can be (25 h, when the clocks go back) instead of being worked
 * out to the end of each day.
 */
import type { Redis } from 'ioredis';
import type { Actor } from '../../shared/domain';
import { dayKey } from '../../shared/events/dates';

const KEY_TTL_SECONDS = 25 * 3600;

/** The visitor a share is counted for: the signed-in member, else the client address. */
export const sharer = (actor: Actor | null, address: string) => (actor ? `member:${actor.id}` : `address:${address}`);

/** The key of one visitor's share of one post on the day `now` falls on in `timeZone`. */
export const shareKey = (postId: string, visitor: string, now: Date, timeZone: string) =>
  `share:${postId}:${dayKey(now, timeZone)}:${visitor}`;

export function createShareLedger(redis: Redis, prefix: string) {
  return {
    /** True for the first share of the key's visitor, post and day (atomic: of simultaneous shares exactly one wins). */
    async claim(key: string): Promise<boolean> {
      return (await redis.set(`${prefix}:${key}`, '1', 'EX', KEY_TTL_SECONDS, 'NX')) === 'OK';
    },
    /** Gives a claimed share back when it could not be recorded, so a retry counts. */
    async release(key: string): Promise<void> {
      await redis.del(`${prefix}:${key}`);
    },
  };
}
