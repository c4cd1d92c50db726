/**
 * Connections to the services every role needs (PostgreSQL, Redis), with a clear
 * message naming the service when one cannot be reached, and no password in it.
 */
import pg from 'pg';
import { Redis } from 'ioredis';
import type { Config } from './config';
import type { Logger } from './logger';

export class ServiceUnavailableError extends Error {
  override readonly name = 'ServiceUnavailableError';
}

export async function reachable<T>(what: string, url: string, connect: () => Promise<T>): Promise<T> {
  try {
    return await connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServiceUnavailableError(`Cannot reach ${what} at ${redactUrl(url)}: ${reason}`);
  }
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/** Outside production, creates the database named in DATABASE_URL when it does not exist yet. */
async function ensureDatabase(config: Config) {
  const probe = new pg.Client({ connectionString: config.databaseUrl });
  try {
    await probe.connect();
    await probe.end();
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000' || config.env === 'production') throw error;
    const url = new URL(config.databaseUrl);
    const name = decodeURIComponent(url.pathname.slice(1));
    url.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`).catch((e: { code?: string }) => {
      if (e.code !== '42P04') throw e;
    });
    await admin.end();
  }
}

export async function connectPostgres(config: Config, logger: Logger): Promise<pg.Pool> {
  await reachable('PostgreSQL', config.databaseUrl, () => ensureDatabase(config));
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
  pool.on('error', (error) => logger.error({ err: error }, 'idle PostgreSQL client failed'));
  await reachable('PostgreSQL', config.databaseUrl, async () => (await pool.query('SELECT 1')).rowCount);

  return pool;
}

export async function connectRedis(config: Config, logger: Logger): Promise<Redis> {
  return reachable('Redis', config.redisUrl, async () => {
    const client = new Redis(config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    let lastError: Error | null = null;
    client.on('error', (error: Error) => {
      // ioredis reconnects by itself; say so once per failure instead of an unhandled-error dump.
      if (lastError?.message !== error.message) logger.error({ err: error }, 'Redis connection error; reconnecting');
      lastError = error;
    });
    try {
      await client.connect();
    } catch (error) {
      client.disconnect();
      throw lastError ?? error;
    }
    return client;
  });
}
