/**
 * `npm run projections:rebuild`: drops every read model and replays the whole
 * event log into them. Stop the projections role first; the API keeps answering
 * from the read models as they refill.
 */
import { pino } from 'pino';
import { loadConfig } from '../platform/config';
import { createServices } from '../main/services';

const config = loadConfig({ ...process.env, ROLES: 'projections' });
const logger = pino({ level: config.logLevel });
const services = await createServices(config, logger);
const head = await services.eventStore.headPosition();
const started = performance.now();
await services.runner.reset();
await services.runner.start();
await services.progress.waitFor(head, 24 * 3600 * 1000);
await services.runner.stop();
const failure = services.runner.failure();
await services.close();
if (failure) {
  logger.error(failure, 'rebuild stopped on a failing projection');
  process.exit(1);
}
logger.info({ events: head, seconds: ((performance.now() - started) / 1000).toFixed(1) }, 'read models rebuilt');
