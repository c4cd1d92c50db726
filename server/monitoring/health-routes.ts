/** Liveness and readiness, for load balancers and orchestrators. */
import { failedProjections } from '../../platform/projections/status';
import type { FastifyInstance } from 'fastify';
import { LivenessSchema, ReadinessSchema } from '../../shared/monitoring/schemas';
import type { ApiDependencies } from '../dependencies';
import { runnerLag } from '../../platform/projections/progress';
import { routeOptions } from '../http/openapi';

/** Readiness fails when the read models are further behind the log than this many events. */
const MAX_READY_LAG = 1000;

async function check(name: string, probe: () => Promise<unknown>): Promise<[string, string]> {
  try {
    await probe();
    return [name, 'ok'];
  } catch (error) {
    return [name, error instanceof Error ? error.message : 'failed'];
  }
}

export async function healthRoutes(
  app: FastifyInstance,
  { services }: { services: Pick<ApiDependencies, 'eventStore' | 'store' | 'redis' | 'runner'> },
) {
  // A probe's answer is of this moment: never kept by a cache, so never tagged either (server/http/etag.ts).
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const route = routeOptions(['monitoring']);
  app.get('/healthz', route('public', 'Liveness: the process answers', { response: { 200: LivenessSchema } }), async () => ({
    status: 'ok',
  }));

  app.get(
    '/readyz',
    route('public', 'Readiness: the stores and Redis answer and the read models are not far behind', {
      response: { 200: ReadinessSchema, 503: ReadinessSchema },
    }),
    async (_request, reply) => {
      const { eventStore, store, redis, runner } = services;
      let lag = { events: 0, seconds: 0 };
      const checks = Object.fromEntries(
        await Promise.all([
          check('eventStore', async () => {
            lag = await runnerLag({ eventStore, store, runnerName: runner.name, cap: MAX_READY_LAG + 1 });
          }),
          check('readStore', () => store.collection('projection_checkpoints').countDocuments({})),
          check('redis', () => redis.ping()),
        ]),
      );
      // Stored by whichever process runs them: a projection that stopped on an event stops alone, and says so here.
      const failed = await failedProjections(store).catch(() => []);
      const subscription = runner.subscription();
      checks.projections =
        failed.length > 0
          ? `stopped: ${failed.map((projection) => `${projection.name} at ${projection.position}`).join(', ')}`
          : subscription.status === 'resubscribing'
            ? `subscribing again after ${subscription.failures} failure(s): ${subscription.reason}`
            : lag.events > MAX_READY_LAG
              ? `lagging by more than ${MAX_READY_LAG} events (${Math.round(lag.seconds)} s)`
              : 'ok';
      const ready = Object.values(checks).every((status) => status === 'ok');
      return reply
        .status(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'not ready', checks, lag: lag.events, lagSeconds: Math.round(lag.seconds) });
    },
  );
}
