/**
 * `npm run projections:rebuild` rebuilds every read model while the site keeps serving;
 * `npm run projections:rebuild -- --only NAME [--only NAME…]` rebuilds those projections alone.
 *
 * It asks for the rebuild (projection_rebuilds) and waits: the process that runs the read models builds new versions
 * beside the live ones and puts them in their place once caught up (platform/projections/runner.ts). When no process
 * runs them, this one does, until the rebuild is done. Exits 0 once every rebuilt model serves, 1 naming what failed.
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from '../platform/config';
import { createServices } from '../main/services';
import { CHECKPOINTS, REBUILDS, type ProjectionCheckpoint, type RebuildRequest } from '../platform/projections/progress';

const { values } = parseArgs({ options: { only: { type: 'string', multiple: true } } });
const config = loadConfig({ ...process.env, ROLES: 'projections' });
const logger = pino({ level: config.logLevel });
const services = await createServices(config, logger);
const { runner, store, readModels } = services;
const known = runner.projections();
const names = values.only?.flatMap((value) => value.split(',')).map((name) => name.trim()) ?? known;
const unknown = names.filter((name) => !known.includes(name));
if (unknown.length > 0) {
  logger.error({ unknown, known }, `No such projection: ${unknown.join(', ')}. The projections are: ${known.join(', ')}`);
  await services.close();
  process.exit(1);
}

const requestedAt = new Date().toISOString();
const requests = store.collection<RebuildRequest>(REBUILDS);
for (const name of names)
  await requests.replaceOne({ _id: name }, { _id: name, runner: runner.name, requestedAt, failed: null }, { upsert: true });
const started = performance.now();
// Runs the read models here only when no other process does.
await readModels.start();
logger.info(
  { projections: names, here: readModels.leading() },
  `rebuilding ${names.join(', ')} beside the live read models${readModels.leading() ? '' : ' (in the process that runs them)'}`,
);

const checkpoints = store.collection<ProjectionCheckpoint>(CHECKPOINTS);
let failed: string[] = [];
for (let done = false; !done; ) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  const pending = await requests.find({ _id: { $in: names } });
  failed = pending.filter((request) => request.failed).map((request) => `${request._id} (${request.failed!.error})`);
  const switched = await checkpoints.find({ _id: { $in: names }, rebuiltAt: { $gte: requestedAt } }, { fields: ['_id'] });
  done = failed.length > 0 ? pending.every((request) => request.failed) : switched.length === names.length;
}
await readModels.stop();
await services.close();
if (failed.length > 0) {
  logger.error({ failed }, `The rebuild failed: ${failed.join('; ')}`);
  process.exit(1);
}
logger.info({ projections: names, seconds: ((performance.now() - started) / 1000).toFixed(1) }, 'rebuilt: the new read models serve');
