/** The monitoring page's figures (staff), pushed to open pages, and /metrics for Prometheus. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MonitoringSchema } from '../../shared/monitoring/schemas';
import { ADMIN, STAFF } from '../http/access';
import type { ApiDependencies } from '../dependencies';
import type { Realtime } from '../realtime/gateway';
import { type MonitoringNeeds, createMonitoring, prometheusRegistry, recordResponseTimes } from './metrics';
import { routeOptions } from '../http/openapi';

/** How often staff pages are told to refresh their figures. */
const PUSH_EVERY_MS = 5000;

/** Not encapsulated: response times are recorded for every route of the app. */
export const monitoringRoutes = fp(async function monitoringRoutes(
  app: FastifyInstance,
  { services, realtime }: { services: Pick<ApiDependencies, MonitoringNeeds | 'config' | 'publish'>; realtime: Realtime },
) {
  const { monitoring: settings, metricsToken } = services.config;
  const monitoring = createMonitoring(services, realtime, settings);
  const registry = prometheusRegistry(monitoring);
  recordResponseTimes(app, monitoring);

  const route = routeOptions(['monitoring']);
  app.get(
    '/api/admin/monitoring',
    route(STAFF, 'The monitoring page’s measured figures and alerts', { response: { 200: MonitoringSchema } }),
    async () => ({
      ...(await monitoring.snapshot()),
      links: { usage: settings.hostingUsageUrl, billing: settings.hostingBillingUrl },
      thresholds: monitoring.thresholds,
    }),
  );

  app.get(
    '/metrics',
    route({ roles: ADMIN, bearerToken: metricsToken }, 'The same figures for Prometheus (admins, or METRICS_TOKEN as a bearer token)', {
      response: { 200: { description: 'Prometheus text format', contentType: 'text/plain' } },
    }),
    async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
  );

  const timer = setInterval(() => services.publish({ message: 'monitoring:changed', rooms: ['staff'], payload: {} }), PUSH_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
});
