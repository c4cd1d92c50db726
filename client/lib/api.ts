/**
 * The one way the client talks to the server: cookies always sent, JSON only
 * when there is a body, and a failed response becomes an ApiError whose message
 * is "STATUS: body" as the spec says, with the server's message and fields kept
 * for forms and toasts.
 */
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

export async function apiRequest<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'include' };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'Content-Type': 'application/json' };
  }
  return answer<T>(await fetch(url, init));
}

/** A multipart upload (a file in `form`); the browser sets the content type, and the site's origin passes the same-origin check. */
export async function apiUpload<T = unknown>(url: string, form: FormData): Promise<T> {
  return answer<T>(await fetch(url, { method: 'POST', credentials: 'include', body: form }));
}

async function answer<T>(response: Response): Promise<T> {
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
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The message to show a person: the server's own words when it sent some. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}
