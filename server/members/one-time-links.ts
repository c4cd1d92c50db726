/**
 * One-time tokens sent by e-mail (sign-in, password reset, e-mail change and registration links): 32 random bytes, base64url in
 * the link; only their SHA-256 is stored, in Redis with a time to live. Taking a
 * token deletes it, so a link works once; a password change ends all of a member's.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function createOneTimeLinks(redis: Redis, prefix: string, kind: string, ttlSeconds: number) {
  const key = (hash: string) => `${prefix}:${kind}:${hash}`;
  /** The hashes of a member's links not yet used, so that a password change can end them all. */
  const ownedBy = (owner: string) => `${prefix}:${kind}-of:${owner}`;
  return {
    /** `owner` (the member the link acts for) defaults to the subject; null for a link no member owns yet (a registration's). */
    async issue(subject: string, owner: string | null = subject): Promise<string> {
      const { token, hash } = newToken();
      const write = redis.multi().set(key(hash), subject, 'EX', ttlSeconds);
      if (owner !== null) write.sadd(ownedBy(owner), hash).expire(ownedBy(owner), ttlSeconds);
      await write.exec();
      return token;
    },
    /** Ends every link issued for `owner` and not yet used. */
    async endAll(owner: string): Promise<void> {
      const hashes = await redis.smembers(ownedBy(owner));
      await redis.del(ownedBy(owner), ...hashes.map(key));
    },
    /** The subject the token was issued for, without using it up; null when unknown, used or expired. */
    async peek(token: string): Promise<string | null> {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
      return redis.get(key(hashToken(token)));
    },
    /** The subject the token was issued for, or null when unknown, used or expired. */
    async take(token: string): Promise<string | null> {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
      return redis.getdel(key(hashToken(token)));
    },
  };
}
