/**
 * `npm run projections:rebuild`: drops every read model and replays the whole
 * event log into them. It takes the read-model runner's lock first, so it refuses
 * while a projections process runs them (stop that role first); the API keeps
 * answering from the read models as they refill.
 */
import { pino } from 'pino';
import { loadConfig } from '../platform/config';
import { createServices, READ_MODEL_RUNNER_LOCK } from '../main/services';
import { createLeadership } from '../platform/projections/leadership';

const config = loadConfig({ ...process.env, ROLES: 'projections' });
const logger = pino({ level: config.logLevel });
const services = await createServices(config, logger);
const { runner, progress, eventStore } = services;
const rebuild = createLeadership({ pool: services.pool, lockKey: READ_MODEL_RUNNER_LOCK, what: 'the rebuild', logger, lead: async () => undefined, follow: async () => undefined });
await rebuild.start();
if (!rebuild.leading()) {
  await rebuild.stop();
  await services.close();
  logger.error({}, 'Another process runs the read models (the projections role): stop it, then rebuild.');
  process.exit(1);
}
const head = await eventStore.headPosition();
const started = performance.now();
await runner.reset();
await runner.start();
await progress.waitFor(head, 24 * 3600 * 1000);
await runner.stop();
await rebuild.stop();
const failure = runner.failure();
await services.close();
if (failure) {
  logger.error(failure, 'rebuild stopped on a failing projection');
  process.exit(1);
}
logger.info({ events: runner.applied(), seconds: ((performance.now() - started) / 1000).toFixed(1) }, 'read models rebuilt');
