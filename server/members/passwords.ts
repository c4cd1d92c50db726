/**
 * Password hashing with scrypt, at the cost OWASP's Password Storage Cheat Sheet
 * recommends (N=2^17, r=8, p=1). The parameters are stored with each hash, so the
 * cost can be raised later without breaking existing passwords.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { RefusedForNowError } from '../http/errors';

const KEY_LENGTH = 32;

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export const OWASP_SCRYPT: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string, cost: ScryptCost = OWASP_SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !N || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash to verify against when no account matches, so a wrong e-mail takes as long as a wrong password. */
let decoy: Promise<string> | undefined;
export function decoyHash(cost: ScryptCost): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'), cost);
  return decoy;
}

/**
 * Password work with a bound: at most `concurrency` hashes at once (each is a core's worth of scrypt), at most `queue`
 * waiting; past that the caller is told the site is busy (503), so a flood of sign-ins makes itself wait, not the
 * members. An address with no account costs no scrypt: it waits as long as recent verifications took (queue
 * included), so how long a sign-in takes does not say whether the address has an account.
 */
export function createPasswordWork(cost: ScryptCost, { concurrency, queue }: { concurrency: number; queue: number }) {
  let running = 0;
  const waiting: (() => void)[] = [];
  /** Recent verifications' time, from asking to answer (a moving average). */
  let typicalMs: number | null = null;
  let measuring: Promise<boolean> | undefined;

  const busy = () => new RefusedForNowError(503, 2, 'Too many people are signing in right now. Please try again in a few seconds.');

  async function inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (running < concurrency) running++;
    else if (waiting.length >= queue) throw busy();
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }

  async function verify(password: string, stored: string): Promise<boolean> {
    const started = performance.now();
    const valid = await inTurn(() => verifyPassword(password, stored));
    const took = performance.now() - started;
    typicalMs = typicalMs === null ? took : typicalMs * 0.8 + took * 0.2;
    return valid;
  }

  return {
    hash: (password: string) => inTurn(() => hashPassword(password, cost)),
    verify,
    /** The answer for an address without an account (or without a password): false, in the time a verification takes. */
    async withoutAccount(password: string): Promise<false> {
      if (running >= concurrency && waiting.length >= queue) throw busy();
      // The first ones wait for one real verification, which measures; after that no scrypt is spent on addresses nobody has.
      if (typicalMs === null) {
        measuring ??= decoyHash(cost).then((decoy) => verify(password, decoy));
        await measuring;
        return false;
      }
      const jitter = 0.9 + Math.random() * 0.2;
      await new Promise((resolve) => setTimeout(resolve, typicalMs! * jitter));
      return false;
    },
  };
}

export type PasswordWork = ReturnType<typeof createPasswordWork>;
