/** One place that turns errors into the API's error shape: `{ message, fields? }`. */
import type { FastifyError, FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { DomainError, ERROR_STATUS, fail } from '../../shared/domain';

/** Parses input at a boundary; an invalid one becomes a 400 naming each field. */
export function parse<const Schema extends v.GenericSchema>(schema: Schema, input: unknown): v.InferOutput<Schema> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const fields: Record<string, string> = {};
  for (const issue of result.issues) {
    const path = v.getDotPath(issue) ?? 'body';
    fields[path] ??= issue.message;
  }
  const first = result.issues[0]?.message ?? 'Invalid input';
  throw fail.invalid(first, fields);
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | DomainError | Error, request, reply) => {
    if (error instanceof DomainError) {
      return reply.status(ERROR_STATUS[error.code]).send(error.fields ? { message: error.message, fields: error.fields } : { message: error.message });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send({ message: 'Something went wrong on our side. Please try again.' });
    }
    // fastify's own 4xx (body too large, bad JSON, rate limit): their messages are safe to show.
    return reply.status(status).send({ message: error.message });
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ message: `No such endpoint: ${request.method} ${request.url.split('?')[0]}` }));
}
