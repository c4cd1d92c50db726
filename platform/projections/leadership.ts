/**
 * One runner at a time for work that must not run twice at once (the read-model
 * runner, the mail runner): of all the processes that start it, the one holding a
 * PostgreSQL advisory lock runs it and the others try to take the lock every few
 * seconds, so one of them takes over when the runner's process dies or is stopped.
 *
 * The lock lives on a connection kept for it. When that connection is lost the lock
 * is gone too, so the runner stops at once and this process goes back to trying;
 * until it has stopped, two runners may briefly overlap, which the position guard on
 * every read-model write (platform/projections/documents.ts) makes harmless.
 */
import type pg from 'pg';
import { namedIfSlow, type Logger } from '../logger';

const TAKE_OVER_EVERY_MS = 5_000;

export interface LeadershipOptions {
  pool: pg.Pool;
  /** Advisory lock key: one per kind of runner, the same in every process. */
  lockKey: number;
  /** For log lines: "the mail runner". */
  what: string;
  logger: Logger;
  /** Starts the work once the lock is held. */
  lead(): Promise<void>;
  /** Stops the work, when the lock is given up or lost. */
  follow(): Promise<void>;
  takeOverEveryMs?: number;
}

export type Leadership = ReturnType<typeof createLeadership>;

export function createLeadership({ pool, lockKey, what, logger, lead, follow, takeOverEveryMs = TAKE_OVER_EVERY_MS }: LeadershipOptions) {
  let client: pg.PoolClient | null = null;
  let leading = false;
  let started = false;
  let timer: NodeJS.Timeout | null = null;
  let attempt: Promise<void> | null = null;

  async function lost(lockClient: pg.PoolClient, error: Error) {
    if (client !== lockClient) return;
    client = null;
    lockClient.release(error);
    if (!leading) return;
    leading = false;
    logger.error({ err: error }, `${what} lost its lock connection; it stops and tries to take over again`);
    await follow().catch((stopError: unknown) => logger.error({ err: stopError }, `could not stop ${what}`));
    if (started) keepTrying();
  }

  async function tryToLead() {
    if (leading) return;
    if (!client) {
      const lockClient = await pool.connect();
      lockClient.on('error', (error) => void lost(lockClient, error));
      client = lockClient;
    }
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, 0) AS ok', [lockKey]);
    if (!rows[0]!.ok) return;
    if (!started) {
      await unlock(client);
      return;
    }
    try {
      await lead();
    } catch (error) {
      // Not leading until the work runs: the lock goes back, for this process or another to try again.
      await unlock(client);
      throw error;
    }
    leading = true;
    if (timer) clearInterval(timer);
    timer = null;
  }

  async function unlock(lockClient: pg.PoolClient) {
    await lockClient.query('SELECT pg_advisory_unlock($1, 0)', [lockKey]).catch(() => undefined);
  }

  function attemptOnce(): Promise<void> {
    attempt ??= tryToLead()
      .catch((error: unknown) => logger.error({ err: error }, `could not take over ${what}`))
      .finally(() => {
        attempt = null;
      });
    return attempt;
  }

  function keepTrying() {
    timer ??= setInterval(() => void attemptOnce(), takeOverEveryMs);
  }

  return {
    /** Whether this process holds the lock and its work runs. */
    leading: () => leading,
    /**
     * The work stopped by itself for good: the lock goes back, so that another process (or this one, a little later)
     * takes over, instead of holding it for work that no longer runs.
     */
    async stopped() {
      if (!leading) return;
      leading = false;
      logger.error({}, `${what} stopped; giving up its lock`);
      await follow().catch((stopError: unknown) => logger.error({ err: stopError }, `could not stop ${what}`));
      if (client) await unlock(client);
      if (started) keepTrying();
    },
    /** Runs the work now if the lock is free, else keeps trying to take it over. */
    async start() {
      started = true;
      await attemptOnce();
      // Not if stopped meanwhile: stop() has cleared no timer yet, and one set now would run on after it.
      if (!leading && started) keepTrying();
    },
    async stop() {
      started = false;
      if (timer) clearInterval(timer);
      timer = null;
      if (attempt) await namedIfSlow(logger, `${what}: an attempt to take the lock`, attempt);
      if (leading) {
        leading = false;
        await namedIfSlow(logger, what, follow());
      }
      const lockClient = client;
      client = null;
      if (!lockClient) return;
      await namedIfSlow(logger, `${what}: its lock`, unlock(lockClient));
      lockClient.release();
    },
  };
}
