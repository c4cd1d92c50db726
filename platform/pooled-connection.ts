/**
 * A pooled PostgreSQL connection checked out for statements of its own (a transaction, an append). A connection cut
 * while it is checked out fails the statement under way; the pool hears its error event only while the connection is
 * idle, so it is heard here meanwhile (unheard, Node would throw it). Released as usual with `release(error?)`.
 */
import pg from 'pg';

const { DatabaseError } = pg;

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

/**
 * `pool.query`, except that a statement the server refused (a missing table, a duplicate key: a DatabaseError) gives
 * its connection back for the next one (a server error of severity ERROR leaves the session as it was). pg-pool's own `query` ends the connection on any error, and each new one
 * costs the server a backend and its caches: a replay that read collections before their tables were made opened
 * eighty connections. A connection that broke is still dropped (pg-pool drops one that cannot take queries).
 */
export async function poolQuery(pool: pg.Pool, text: string, values?: unknown[]): Promise<pg.QueryResult> {
  // Checked out as any other: a cut that reaches it between the statement's answer and its release is heard.
  const client = await checkOut(pool);
  try {
    const result = await client.query(text, values);
    client.release();
    return result;
  } catch (error) {
    // A statement's error leaves the session usable; FATAL (the server ends the session) and anything else do not.
    client.release(error instanceof DatabaseError && error.severity === 'ERROR' ? undefined : (error as Error));
    throw error;
  }
}
