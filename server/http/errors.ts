/** One place that turns errors into the API's error shape: `{ message, fields? }`. */
import type { FastifyError, FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { DomainError, ERROR_STATUS, fail } from '../../shared/domain';
import { refusedInputCode } from '../../platform/refused-input';
import { AppendTooLargeError, EventStoreUnavailableError } from '../../platform/event-store/port';

/**
 * A request refused for the site's sake, not for what it said: 429 when one caller, account or mailbox asked too
 * often, 503 when the site is too busy for the work just now. Both say when to try again (Retry-After).
 */
export class RefusedForNowError extends Error {
  override readonly name = 'RefusedForNowError';
  constructor(
    readonly status: 429 | 503,
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
  }
}

export const tooManyAttempts = (retryAfterSeconds: number) =>
  new RefusedForNowError(429, retryAfterSeconds, `Too many attempts. Please wait ${retryAfterSeconds} seconds and try again.`);

/** Parses input at a boundary; an invalid one becomes a 400 naming each field. */
export function parse<const Schema extends v.GenericSchema>(schema: Schema, input: unknown): v.InferOutput<Schema> {
  // No body where an object is expected reads as an object with no fields, so each field gets its own message.
  const result = v.safeParse(schema, input === undefined && schema.type === 'object' ? {} : input);
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
      return reply
        .status(ERROR_STATUS[error.code])
        .send(error.fields ? { message: error.message, fields: error.fields } : { message: error.message });
    }
    if (error instanceof RefusedForNowError) {
      return reply.status(error.status).header('retry-after', String(error.retryAfterSeconds)).send({ message: error.message });
    }
    if (error instanceof AppendTooLargeError) {
      request.log.warn(
        { stream: error.streamName, bytes: error.bytes, route: request.routeOptions.url },
        'an append was over the event store limit',
      );
      return reply
        .status(413)
        .send({ message: `This is too large to save: at most ${formatMiB(error.maxBytes)} can be saved at once. Please shorten it.` });
    }
    if (error instanceof EventStoreUnavailableError) {
      request.log.error({ err: error.cause, route: request.routeOptions.url }, 'the event store is unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ message: 'The site cannot save changes just now. Please try again in a few seconds.' });
    }
    const refused = refusedInputCode(error);
    if (refused) {
      // Neither the body nor the store's message is logged or answered: both may quote what the caller sent.
      request.log.warn({ code: refused, method: request.method, route: request.routeOptions.url }, 'a store refused the input');
      return reply.status(400).send({ message: 'Invalid input' });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send({ message: 'Something went wrong on our side. Please try again.' });
    }
    // fastify's own 4xx (body too large, bad JSON, rate limit): their messages are safe to show.
    return reply.status(status).send({ message: error.message });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ message: `No such endpoint: ${request.method} ${request.url.split('?')[0]}` }),
  );
}

function formatMiB(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${Math.round(bytes / 1024)} KiB`;
}
