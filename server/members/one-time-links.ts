/**
 * One-time tokens sent by e-mail (sign-in links): 32 random bytes, base64url in
 * the link; only their SHA-256 is stored, in Redis with a time to live. Taking a
 * token deletes it, so a link works once.
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
  return {
    async issue(subject: string): Promise<string> {
      const { token, hash } = newToken();
      await redis.set(key(hash), subject, 'EX', ttlSeconds);
      return token;
    },
    /** The subject the token was issued for, or null when unknown, used or expired. */
    async take(token: string): Promise<string | null> {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
      return redis.getdel(key(hashToken(token)));
    },
  };
}
