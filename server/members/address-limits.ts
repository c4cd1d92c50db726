/**
 * Limits per e-mail address, whoever asks and from wherever: wrong passwords for one account, and links mailed to one
 * mailbox (sign-in, e-mail change). Per-client limits alone let many addresses (a botnet, or a header before proxies
 * were trusted by hop) try one account's password or fill one mailbox. Counted in Redis under an HMAC of the address
 * with a server secret, so Redis never holds the address itself; an unknown address counts like a known one, so a
 * limit tells nothing about whether an account exists.
 */
import { createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import { tooManyAttempts } from '../http/errors';

export type AddressLimitKind = 'sign-in-failures' | 'mail-links';

export interface AddressLimit {
  max: number;
  windowSeconds: number;
}

export function createAddressLimits(redis: Redis, prefix: string, secret: string, limits: Record<AddressLimitKind, AddressLimit>) {
  const key = (kind: AddressLimitKind, email: string) =>
    `${prefix}:address-limit:${kind}:${createHmac('sha256', secret).update(`address-limit\0${kind}\0${email.trim().toLowerCase()}`).digest('base64url')}`;

  async function over(kind: AddressLimitKind, email: string): Promise<number | null> {
    const [count, ttl] = await redis
      .multi()
      .get(key(kind, email))
      .ttl(key(kind, email))
      .exec()
      .then((replies) => replies!.map(([, value]) => value) as [string | null, number]);
    return Number(count ?? 0) >= limits[kind].max ? Math.max(ttl, 1) : null;
  }

  return {
    /** Throws 429 when the address has used up `kind` for now; counts nothing. */
    async check(kind: AddressLimitKind, email: string): Promise<void> {
      const wait = await over(kind, email);
      if (wait !== null) throw tooManyAttempts(wait);
    },
    /** Counts one of `kind` for the address (the window starts with the first). */
    async count(kind: AddressLimitKind, email: string): Promise<void> {
      const name = key(kind, email);
      await redis.multi().incr(name).expire(name, limits[kind].windowSeconds, 'NX').exec();
    },
    /** Checks, then counts: for what is limited whether or not it succeeds (mailing a link). */
    async take(kind: AddressLimitKind, email: string): Promise<void> {
      await this.check(kind, email);
      await this.count(kind, email);
    },
    /** Forgets the address's count: a right password ends the run of wrong ones. */
    async clear(kind: AddressLimitKind, email: string): Promise<void> {
      await redis.del(key(kind, email));
    },
  };
}

export type AddressLimits = ReturnType<typeof createAddressLimits>;
