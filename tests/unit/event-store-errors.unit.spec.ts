/** The event store's failures as the API answers them (server/http/errors.ts). */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../server/http/errors';
import { AppendTooLargeError, EventStoreUnavailableError, MAX_APPEND_BYTES } from '../../platform/event-store/port';

async function answer(error: Error) {
  const app = Fastify();
  registerErrorHandler(app);
  app.post('/api/blog', async () => {
    throw error;
  });
  const response = await app.inject({ method: 'POST', url: '/api/blog', payload: {} });
  await app.close();
  return response;
}

describe('event store failures over HTTP', () => {
  it('answers an append over the size limit with 413 and what to do', async () => {
    const response = await answer(new AppendTooLargeError('blog-1', MAX_APPEND_BYTES + 10, MAX_APPEND_BYTES));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'This is too large to save: at most 1 MiB can be saved at once. Please shorten it.' });
  });

  it('answers an event store that stayed unreachable with 503 and when to retry, without its details', async () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' });
    const response = await answer(new EventStoreUnavailableError(cause));
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({ message: 'The site cannot save changes just now. Please try again in a few seconds.' });
    expect(response.body).not.toContain('10.0.0.7');
  });
});
