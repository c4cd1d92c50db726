/**
 * Starts the roles named in ROLES (api, realtime, projections, workers, and in development inbound; all but inbound
 * by default elsewhere, for one machine) and closes them gracefully on SIGINT/SIGTERM. realtime with api serves the
 * sockets on the API's HTTP server; realtime alone, on a server of its own on PORT (server/realtime/server.ts).
 */
import { pino } from 'pino';
import { ConfigError, loadConfig } from '../platform/config';
import { createServices } from './services';
import { ServiceUnavailableError } from '../platform/connections';
import { buildApp } from '../server/app';
import { startInboundRole } from './inbound';
import { startRealtimeServer } from '../server/realtime/server';

async function main() {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  const services = await createServices(config, logger);
  const stops: (() => Promise<void>)[] = [];

  if (config.roles.has('projections')) {
    await services.readModels.start();
    stops.push(() => services.readModels.stop());
    logger.info({}, services.readModels.leading() ? 'projections running' : 'projections standing by: another process runs them');
  }
  if (config.roles.has('workers')) {
    await services.startWorkers();
    logger.info({}, 'workers running');
  }
  if (config.roles.has('inbound')) {
    const inbound = await startInboundRole(services, logger);
    stops.unshift(inbound.close);
    logger.info({ port: inbound.port }, `taking replies to discussion mail at reply+…@${config.inbound.replyDomain}`);
  }
  if (config.roles.has('realtime') && !config.roles.has('api')) {
    const realtime = await startRealtimeServer(services, logger, { port: config.port, host: config.host });
    stops.unshift(realtime.close);
  }
  if (config.roles.has('api')) {
    const { app } = await buildApp(services);
    await app.listen({ port: config.port, host: config.host });
    stops.unshift(() => app.close());
    logger.info({}, `Broadcast History Community is up at ${config.publicUrl}`);
    if (!config.roles.has('realtime'))
      logger.info({}, 'no realtime role here: /socket.io/ must be routed to the processes that run it (ROLES=realtime)');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    for (const stop of stops) await stop().catch((error: unknown) => logger.error({ err: error }, 'error while stopping'));
    await services.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof ServiceUnavailableError) {
    console.error(`\nCannot start Broadcast History Community.\n${error.message}\n`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
