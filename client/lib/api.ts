/**
 * The one way the client talks to the server: cookies always sent, JSON only
 * when there is a body, and a failed response becomes an ApiError whose message
 * is "STATUS: body" as the spec says, with the server's message and fields kept
 * for forms and toasts.
 *
 * `api` is openapi-fetch over the generated contract (client/lib/api-schema.ts): a call names the operation's
 * path template and method as the OpenAPI document has them, its params and body are checked against the
 * route's schemas, and `answer(api.GET('/api/posts/{id}', { params: { path: { id } } }))` resolves to the
 * operation's success answer, typed from the document, or rejects with an ApiError.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './api-schema';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: string,
    readonly serverMessage: string | null,
    readonly fields: Record<string, string>,
  ) {
    super(`${status}: ${body}`);
  }
}

/** Non-2xx answers become ApiErrors here, so a call's `data` is always its success answer. */
const throwFailures: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) await parse(response.clone());
    return undefined;
  },
};

/**
 * A multipart body (a file in a FormData) goes as it is: the browser sets its content type and boundary. A null body
 * (a command whose body the document allows to be absent, `{ reason } | null`) is sent as none, with no content type.
 */
const bodySerializer = (body: unknown) => (body instanceof FormData ? body : body === null ? undefined : JSON.stringify(body));

export const api = createClient<paths>({ credentials: 'include', bodySerializer });
api.use(throwFailures);

/** The success answer of a call on `api` (its failures have already thrown, as ApiErrors). */
export async function answer<R extends { data?: unknown }>(call: Promise<R>): Promise<SuccessData<R>> {
  const result: { data?: unknown } = await call;
  return result.data as SuccessData<R>;
}

/**
 * The address of the operation at `path` (a template of the document) with its path params filled in, for what the
 * browser itself opens rather than the client reads: a download link, a calendar file.
 */
export function operationAddress(path: keyof paths, params: Record<string, string> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** openapi-fetch's result is `{ data }` on success or `{ error }` on failure; only the first reaches a caller. */
export type SuccessData<R> = R extends { data: infer D } ? D : never;

/**
 * An upload (POST /api/media, a file in `form`), typed by the document's answer. openapi-fetch would send the
 * FormData as it is (bodySerializer above), but the document does not describe the multipart body yet, so the
 * typed call would not accept it: until it does, this is the one call made beside `api`.
 */
export async function uploadMedia(form: FormData): Promise<Uploaded> {
  return (await parse(await fetch('/api/media', { method: 'POST', credentials: 'include', body: form }))) as Uploaded;
}
type Uploaded = paths['/api/media']['post']['responses'][201]['content']['application/json'];

/** A response's JSON, or an ApiError when it failed. */
async function parse(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) {
    let message: string | null = null;
    let fields: Record<string, string> = {};
    try {
      const parsed = JSON.parse(text) as { message?: string; fields?: Record<string, string> };
      message = parsed.message ?? null;
      fields = parsed.fields ?? {};
    } catch {
      // not JSON: the text itself is the detail
    }
    throw new ApiError(response.status, text || response.statusText, message, fields);
  }
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** The message to show a person: the server's own words when it sent some. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}
