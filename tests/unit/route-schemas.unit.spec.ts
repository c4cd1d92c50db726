/** A route that declares no answers is refused when it is registered, so it cannot be missing from the OpenAPI document. */
import Fastify from 'fastify';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { registerValibotSchemas, requireRouteSchemas } from '../../server/http/openapi';

function app() {
  const fastify = Fastify();
  registerValibotSchemas(fastify);
  requireRouteSchemas(fastify);
  return fastify;
}

describe('route schemas', () => {
  it('refuses a route without a response schema', () => {
    expect(() => app().get('/api/things', async () => ({}))).toThrow('GET /api/things declares no response schema');
    expect(() => app().post('/api/things', { schema: { body: v.object({}) } }, async () => ({}))).toThrow(
      'POST /api/things declares no response schema',
    );
  });

  it('accepts a documented route, and one hidden from the reference', () => {
    expect(() =>
      app().get('/api/things', { schema: { response: { 200: v.object({ n: v.number() }) } } }, async () => ({ n: 1 })),
    ).not.toThrow();
    expect(() => app().get('/*', { schema: { hide: true } }, async () => '')).not.toThrow();
  });

  it('answers only what the response schema names, and a 500 for an answer it does not describe', async () => {
    const fastify = app();
    fastify.get('/api/member', { schema: { response: { 200: v.object({ name: v.string() }) } } }, async () => ({
      name: 'Ada',
      passwordHash: 'secret',
    }));
    fastify.get('/api/broken', { schema: { response: { 200: v.object({ name: v.string() }) } } }, async () => ({ name: 42 }));
    const member = await fastify.inject({ url: '/api/member' });
    expect(member.json()).toEqual({ name: 'Ada' });
    expect((await fastify.inject({ url: '/api/broken' })).statusCode).toBe(500);
    await fastify.close();
  });
});
