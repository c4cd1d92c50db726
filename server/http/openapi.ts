/**
 * Routes declare their params, query, body and responses with valibot schemas
 * (from shared/<feature>/ where client and server share them). fastify validates
 * requests and serialises responses with them, and the OpenAPI 3.1 document
 * (GET /api/openapi.json, read at /api/docs) is generated from the same schemas,
 * so the reference cannot drift from what the server does.
 *
 * Requests: an invalid one is the API's 400 naming each field (`parse`).
 * Responses: every answer is written by its schema, so a field a schema does not
 * name never leaves the server. The type provider makes each handler answer its
 * schema's type (tsc checks it), and a required field missing is a 500 that the
 * tests see. Answers are written by fast-json-stringify (fastify's own serialiser)
 * from the schema's JSON Schema, compiled on first use: parsing each answer with
 * valibot first was a quarter of the CPU of a list read. A schema JSON Schema
 * cannot say (a transform, a check) is parsed by valibot as before.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyContextConfig, FastifyInstance, FastifySchema, FastifyTypeProvider } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { toJsonSchema } from '@valibot/to-json-schema';
import fastJsonStringify from 'fast-json-stringify';
import * as v from 'valibot';
import { parse } from './errors';
import { describeAccess, type Access } from './access';
import { NAMED_ANSWERS } from './openapi-components';

/** Lets handlers see `request.body` etc. as the schema's output and checks what they answer against it. */
export interface ValibotTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends v.GenericSchema ? v.InferOutput<this['schema']> : unknown;
  serializer: this['schema'] extends v.GenericSchema ? v.InferInput<this['schema']> : unknown;
}

/** A response that is not JSON (a calendar file, RSS, a redirect, a page): documented by its media type. */
export interface RawResponse {
  description: string;
  contentType?: string;
}

export type ResponseSchema = v.GenericSchema | RawResponse;

export interface RouteSchema extends FastifySchema {
  /** Named by its method and address when not given (operationIdOf). */
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  params?: v.GenericSchema;
  querystring?: v.GenericSchema;
  body?: v.GenericSchema;
  response: Record<number, ResponseSchema>;
}

/** What a route declares beyond its summary and tags (params, query, body, answers, a description): `routeOptions`. */
export type OperationSchema = Omit<RouteSchema, 'summary'>;

/**
 * The options of one feature's routes, so that each declaration reads as who may call it, what it does and its schemas:
 * `const route = routeOptions(['bookmarks'])`, then
 * `app.get('/api/bookmarks', route('signed-in', 'My bookmarks', { querystring: ListQuery, response: { 200: … } }), handler)`.
 * The summary is the operation's in the OpenAPI document, the feature's tags its tags (a schema's own `tags` replace them),
 * and `config` is any further route config (a rate limit, allowCrossSite). Generic over the schema, so handlers still
 * see `request.params`, `request.query` and `request.body` as its valibot schemas' output.
 */
export function routeOptions(tags: string[]) {
  return <S extends OperationSchema>(access: Access, summary: string, schema: S, config: Omit<FastifyContextConfig, 'access'> = {}) => ({
    config: { access, ...config },
    schema: { summary, tags, ...schema },
  });
}

export const DOCS_PREFIX = '/api/docs';
export const OPENAPI_PATH = '/api/openapi.json';

/** An answer without a body (204, or a 304 revalidation). */
export const noContent = (description = 'No content'): RawResponse => ({ description });
/** A redirect; where to is in the Location header. */
export const redirect = (description: string): RawResponse => ({ description });

export const ErrorSchema = v.object({
  message: v.string(),
  /** Field path to its message, for a 400 about a form. */
  fields: v.optional(v.record(v.string(), v.string())),
});

function isValibot(schema: unknown): schema is v.GenericSchema {
  return typeof schema === 'object' && schema !== null && 'kind' in schema && (schema as { kind: unknown }).kind === 'schema';
}

export function registerValibotSchemas(app: FastifyInstance) {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (!isValibot(schema)) throw new Error('Route schemas are valibot schemas');
    return (data) => {
      try {
        // fastify hands a request without a body over as null: no body, whose fields `parse` names one by one.
        return { value: parse(schema, httpPart === 'body' && data === null ? undefined : data) };
      } catch (error) {
        return { error: error as Error };
      }
    };
  });
  app.setSerializerCompiler(({ schema }) => {
    if (!isValibot(schema)) return (data) => JSON.stringify(data);
    let write: Serializer | undefined;
    return (data) => (write ??= serializerOf(schema))(data);
  });
}

type Serializer = (data: unknown) => string;
/** One serialiser per schema, shared by every route that answers it. */
const serializers = new WeakMap<v.GenericSchema, Serializer>();

function serializerOf(schema: v.GenericSchema): Serializer {
  let write = serializers.get(schema);
  if (!write) {
    write = compileSerializer(schema);
    serializers.set(schema, write);
  }
  return write;
}

function compileSerializer(schema: v.GenericSchema): Serializer {
  let json: object;
  try {
    json = toJsonSchema(schema, {
      target: 'draft-07',
      typeMode: 'output',
      errorMode: 'throw',
      overrideSchema: ({ valibotSchema }) => (valibotSchema.type === 'date' ? { type: 'string', format: 'date-time' } : undefined),
    });
  } catch {
    return (data) => JSON.stringify(v.parse(schema, data));
  }
  return fastJsonStringify(openObjects(json) as Parameters<typeof fastJsonStringify>[0]);
}

/**
 * The schema without `additionalProperties: false`: fast-json-stringify writes only the properties an object
 * names either way, and a union's branch is chosen by validating the value, which a field the answer leaves
 * out (as valibot's parse did) must not fail.
 */
function openObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openObjects);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, openObjects(value)]),
  );
}

/**
 * Refuses, when a route is registered, one that declares no answers: every route is in the OpenAPI document,
 * or says it is not part of the API (`schema: { hide: true }`: the reference itself, the app's pages).
 */
export function requireRouteSchemas(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as RouteSchema | undefined;
    if (!schema?.hide && !schema?.response)
      throw new Error(`${String(route.method)} ${route.url} declares no response schema (server/http/openapi.ts)`);
  });
}

/**
 * Converts the schemas of one route for the OpenAPI document; requests by their input, answers by their output. A date
 * (`v.date()`, which JSON cannot carry) is written as JSON carries it: an ISO 8601 string.
 */
function jsonSchema(schema: v.GenericSchema, typeMode: 'input' | 'output') {
  return toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'ignore',
    overrideSchema: ({ valibotSchema }) => {
      if (valibotSchema.type === 'date') return { type: 'string', format: 'date-time' };
      // An answer named in components/schemas is referred to (but where it is the component itself).
      const name = typeMode === 'output' ? answerNames.get(valibotSchema) : undefined;
      return name && valibotSchema !== schema ? { $ref: `${COMPONENTS}${name}` } : undefined;
    },
  });
}

const COMPONENTS = '#/components/schemas/';
const NAMED = { ...NAMED_ANSWERS, Error: ErrorSchema };
const answerNames = new Map<unknown, string>(Object.entries(NAMED).map(([name, schema]) => [schema, name]));

/** A route's answer: a named one by reference, any other written out. */
function answerSchema(schema: v.GenericSchema) {
  const name = answerNames.get(schema);
  return name ? { $ref: `${COMPONENTS}${name}` } : jsonSchema(schema, 'output');
}

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * An operation's name from its method and address, stable and unique as they are: `GET /api/posts/:id/comments` is
 * `getPostsByIdComments`, `PUT /api/admin/posts/:id/pin` is `putAdminPostsByIdPin`; a page the server renders ends in
 * `Page` (`GET /blog/:id` is `getBlogByIdPage`, beside the API's `getBlogById`).
 */
export function operationIdOf(method: string, url: string, page = false): string {
  const words = url
    .split('/')
    .filter((segment, index) => segment !== '' && !(index === 1 && segment === 'api'))
    .map((segment) =>
      segment.startsWith(':')
        ? `By${pascal(segment.slice(1))}`
        : segment
            .split(/[^A-Za-z0-9]+/u)
            .filter(Boolean)
            .map(pascal)
            .join(''),
    );
  return `${method.toLowerCase()}${words.join('') || 'Root'}${page ? 'Page' : ''}`;
}

/** The errors a route may answer, from what it declares: invalid input, who may call it, rate limits. */
function errorResponses(schema: RouteSchema, access: Access | undefined, rateLimited: boolean): Record<number, ResponseSchema> {
  const errors: Record<number, ResponseSchema> = {};
  if (schema.params || schema.querystring || schema.body) errors[400] = ErrorSchema;
  if (access && access !== 'public') errors[401] = ErrorSchema;
  if (access && typeof access !== 'string') errors[403] = ErrorSchema;
  if (rateLimited) errors[429] = ErrorSchema;
  return errors;
}

/** A non-JSON answer as @fastify/swagger writes it: its media type, or no body at all. */
function rawResponse(response: RawResponse) {
  return response.contentType
    ? { description: response.description, content: { [response.contentType]: { schema: { type: 'string' } } } }
    : { description: response.description, type: 'null' };
}

/** Whether a route answers with an HTML page. */
const isPage = (response: RouteSchema['response']) =>
  Object.values(response).some((answer) => !isValibot(answer) && answer.contentType?.startsWith('text/html'));

/** Turns a route's valibot schemas into the JSON Schemas @fastify/swagger documents. */
export function documentedSchema(
  schema: RouteSchema,
  operation: { method: string; url: string; access: Access | undefined; rateLimited: boolean },
) {
  const { params, querystring, body, response, ...rest } = schema;
  const { access } = operation;
  const responses = { ...errorResponses(schema, access, operation.rateLimited), ...response };
  return {
    ...rest,
    operationId: schema.operationId ?? operationIdOf(operation.method, operation.url, isPage(response)),
    description:
      [rest.description, access ? `Who may call it: ${describeAccess(access)}.` : undefined].filter(Boolean).join('\n\n') || undefined,
    // A public operation says so: no security requirement, rather than none declared.
    security: access && access !== 'public' ? [{ session: [] }] : [],
    ...(params ? { params: jsonSchema(params, 'input') } : {}),
    ...(querystring ? { querystring: jsonSchema(querystring, 'input') } : {}),
    ...(body ? { body: jsonSchema(body, 'input') } : {}),
    response: Object.fromEntries(
      Object.entries(responses).map(([status, r]) => [
        status,
        isValibot(r) ? { ...answerSchema(r), description: STATUS_CODES[status] } : rawResponse(r),
      ]),
    ),
  };
}

export async function registerOpenApi(app: FastifyInstance, info: { version: string; publicUrl: string }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Broadcast History Community API',
        version: info.version,
        description:
          'The HTTP API of the site and its widgets. Signed-in calls use the session cookie set by POST /api/auth/login; ' +
          'state-changing calls must come from the site itself (Origin or Sec-Fetch-Site). Errors are `{ message, fields? }`. ' +
          'Lists answer `{ items, nextCursor }`: pass `cursor` to get the next page.',
      },
      servers: [{ url: info.publicUrl }],
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'bhc.sid' } },
        schemas: Object.fromEntries(Object.entries(NAMED).map(([name, schema]) => [name, jsonSchema(schema, 'output')])) as Record<
          string,
          object
        >,
      },
    },
    transform: ({ schema, url, route }) => {
      const routeSchema = schema as RouteSchema | undefined;
      if (!routeSchema?.response || routeSchema.hide) return { schema: { hide: true }, url };
      const method = Array.isArray(route.method) ? route.method[0]! : route.method;
      return {
        schema: documentedSchema(routeSchema, {
          method,
          url: route.url,
          access: route.config?.access,
          rateLimited: Boolean(route.config?.rateLimit),
        }) as FastifySchema,
        url,
      };
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, uiConfig: { docExpansion: 'list', deepLinking: true } });
}
