/**
 * A route that declares no answers is refused when it is registered, so it cannot be missing from the OpenAPI document;
 * answers are written by their schemas (server/http/openapi.ts).
 */
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

  it('answers only what the response schema names, at every depth and in every branch, and a 500 for an answer missing a field', async () => {
    const fastify = app();
    const Author = v.object({ name: v.string(), joinedAt: v.date() });
    const Answer = v.object({
      author: Author,
      editor: v.nullable(Author),
      items: v.array(v.object({ id: v.string(), note: v.optional(v.string()) })),
    });
    const secret = { passwordHash: 'secret', email: 'ada@example.org' };
    const joinedAt = new Date('2026-01-02T03:04:05.000Z');
    fastify.get('/api/member', { schema: { response: { 200: Answer } } }, async () => ({
      author: { name: 'Ada', joinedAt, ...secret },
      editor: { name: 'Grace', joinedAt, ...secret },
      items: [
        { id: 'a', ...secret },
        { id: 'b', note: 'kept' },
      ],
      ...secret,
    }));
    fastify.get('/api/nobody', { schema: { response: { 200: Answer } } }, async () => ({
      author: { name: 'Ada', joinedAt },
      editor: null,
      items: [],
    }));
    fastify.get('/api/broken', { schema: { response: { 200: v.object({ name: v.string() }) } } }, async () => ({ other: 'Ada' }));
    const member = await fastify.inject({ url: '/api/member' });
    expect(member.json()).toEqual({
      author: { name: 'Ada', joinedAt: '2026-01-02T03:04:05.000Z' },
      editor: { name: 'Grace', joinedAt: '2026-01-02T03:04:05.000Z' },
      items: [{ id: 'a' }, { id: 'b', note: 'kept' }],
    });
    expect((await fastify.inject({ url: '/api/nobody' })).json()).toEqual({
      author: { name: 'Ada', joinedAt: '2026-01-02T03:04:05.000Z' },
      editor: null,
      items: [],
    });
    expect((await fastify.inject({ url: '/api/broken' })).statusCode).toBe(500);
    await fastify.close();
  });

  it('parses with valibot an answer whose schema JSON Schema cannot say, and a 500 for one it refuses', async () => {
    const fastify = app();
    const Shouted = v.object({
      name: v.pipe(
        v.string(),
        v.transform((name) => name.toUpperCase()),
      ),
      secret: v.optional(v.never()),
    });
    const Checked = v.object({
      name: v.pipe(
        v.string(),
        v.check((name) => name.length > 0, 'a name'),
      ),
    });
    fastify.get('/api/shouted', { schema: { response: { 200: Shouted } } }, async () => ({ name: 'ada', other: 1 }));
    fastify.get('/api/checked', { schema: { response: { 200: Checked } } }, async () => ({ name: '' }));
    expect((await fastify.inject({ url: '/api/shouted' })).json()).toEqual({ name: 'ADA' });
    expect((await fastify.inject({ url: '/api/checked' })).statusCode).toBe(500);
    await fastify.close();
  });
});
