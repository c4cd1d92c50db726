/**
 * Creates the database named in DATABASE_URL when it is missing, as `npm start` does, then exits. The compose stack
 * (docker-compose.yml) runs it in each app container before the site: the site runs in production mode there, and
 * in production the site itself never creates a database (a mistyped DATABASE_URL must fail, not start an empty
 * site). So a new stack, an old volume or a second app beside the first gets its database without an init script.
 *
 *   node --import tsx docker/create-database.ts
 */
import { ConfigError, loadConfig } from '../platform/config';
import { ServiceUnavailableError, connectPostgres } from '../platform/connections';

try {
  const config = loadConfig();
  // The site's own start-up path: connect, and create the database when PostgreSQL says it does not exist.
  const pool = await connectPostgres({ ...config, env: 'development' }, { info: () => undefined, error: () => undefined });
  await pool.end();
} catch (error) {
  if (!(error instanceof ConfigError || error instanceof ServiceUnavailableError)) throw error;
  console.error(`\nCannot create the database of Broadcast History Community.\n${error.message}\n`);
  process.exit(1);
}
