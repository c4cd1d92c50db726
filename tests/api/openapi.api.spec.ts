/**
 * The OpenAPI document: generated from the routes' valibot schemas, valid OpenAPI 3.1, covering every route
 * `npm run routes` lists, and readable at /api/docs.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site';
import { Browser } from '../support/http';

let site: TestSite;
const anonymous = () => new Browser(site.url);

beforeAll(async () => {
  site = await startTestSite();
});
afterAll(() => site?.close());

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown>; security?: unknown[] }>>;
}

async function document(): Promise<OpenApiDocument> {
  const response = await anonymous().get<OpenApiDocument>('/api/openapi.json');
  expect(response.status).toBe(200);
  return response.body;
}

/** `/api/events/:id` as OpenAPI writes it. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

/** Routes outside the API: the reference itself, and the app's other pages and built files (`/*`). */
const isReference = (url: string) => url === '/api/openapi.json' || url.startsWith('/api/docs') || url === '/*';

describe('OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const api = await document();
    expect(api.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(api) as never)).resolves.toBeTruthy();
  });

  it('documents every route, each with its answers, and who may call it', async () => {
    const api = await document();
    const missing = site.routes
      .filter((route) => !isReference(route.url) && !api.paths[openApiPath(route.url)]?.[route.method.toLowerCase()])
      .map((route) => `${route.method} ${route.url}`);
    expect(missing).toEqual([]);
    for (const route of site.routes.filter((r) => !isReference(r.url))) {
      const operation = api.paths[openApiPath(route.url)]![route.method.toLowerCase()]!;
      expect(Object.keys(operation.responses).length, `${route.method} ${route.url}`).toBeGreaterThan(0);
      // A public operation declares that it needs nothing, rather than nothing at all.
      expect(operation.security, `${route.method} ${route.url}`).toEqual(route.access === 'public' ? [] : [{ session: [] }]);
    }
  });

  it('names every operation, once', async () => {
    const api = await document();
    const names = Object.values(api.paths).flatMap((operations) => Object.values(operations).map((operation) => operation.operationId));
    expect(names.filter((name) => !name)).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('is readable as a reference page', async () => {
    const page = await anonymous().get('/api/docs/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('swagger-ui');
  });
});
