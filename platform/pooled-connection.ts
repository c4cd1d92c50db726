/**
 * A pooled PostgreSQL connection checked out for statements of its own (a transaction, an append). A connection cut
 * while it is checked out fails the statement under way; the pool hears its error event only while the connection is
 * idle, so it is heard here meanwhile (unheard, Node would throw it). Released as usual with `release(error?)`.
 */
import type pg from 'pg';

export async function checkOut(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  const ignore = () => undefined;
  client.on('error', ignore);
  const release = client.release.bind(client);
  client.release = (error?: Error | boolean) => {
    client.off('error', ignore);
    release(error);
  };
  return client;
}
