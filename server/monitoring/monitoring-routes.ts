/** The monitoring page's figures (staff), pushed to open pages, and /metrics for Prometheus. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ADMIN, STAFF } from '../http/access';
import type { Services } from '../services';
import type { Realtime } from '../realtime/gateway';
import { createMonitoring, prometheusRegistry, recordResponseTimes } from './metrics';

/** How often staff pages are told to refresh their figures. */
const PUSH_EVERY_MS = 5000;

/** Not encapsulated: response times are recorded for every route of the app. */
export const monitoringRoutes = fp(async function monitoringRoutes(app: FastifyInstance, { services, realtime }: { services: Services; realtime: Realtime }) {
  const { monitoring: settings, metricsToken } = services.config;
  const monitoring = createMonitoring(services, realtime, settings);
  const registry = prometheusRegistry(monitoring);
  recordResponseTimes(app, monitoring);

  app.get('/api/admin/monitoring', { config: { access: STAFF } }, async () => ({
    ...(await monitoring.snapshot()),
    links: { usage: settings.hostingUsageUrl, billing: settings.hostingBillingUrl },
    thresholds: monitoring.thresholds,
  }));

  app.get('/metrics', { config: { access: { roles: ADMIN, bearerToken: metricsToken } } }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );

  const timer = setInterval(() => services.publish({ message: 'monitoring:changed', rooms: ['staff'], payload: {} }), PUSH_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
});
