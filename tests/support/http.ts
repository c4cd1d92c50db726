/**
 * A tiny HTTP client for integration tests that keeps its own cookies, like one
 * browser would, against a running test site.
 */
import { registrationLinkFor, registrationLinksQueued, takeRegistrationMail } from './registration-links';

export interface Response<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class Browser {
  constructor(
    readonly baseUrl: string,
    private readonly cookies = new Map<string, string>(),
  ) {}

  /** The same browser (its cookies shared) talking to another process of the site. */
  at(baseUrl: string): Browser {
    return new Browser(baseUrl, this.cookies);
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response<T>> {
    const init: RequestInit = { method, redirect: 'manual', headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookie) (init.headers as Record<string, string>).cookie = cookie;
    const response = await fetch(new URL(path, this.baseUrl), init);
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join('='));
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body ?? {});
  }
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body ?? {});
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, body ?? {});
  }
  /**
   * Without a body, as browsers send it: undici (Node's fetch) closes the connection after a DELETE that carries one,
   * so every DELETE would open a new connection. JSON's content type is what the site's CSRF check asks of a change
   * (server/http/same-origin.ts).
   */
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path, undefined, { 'content-type': 'application/json' });
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }
  forgetCookies() {
    this.cookies.clear();
  }
}

let counter = 0;
/**
 * Registers a new account through the API, as a person does (docs/domain/members.md#registration): the form, then the
 * link mailed to the address (read from the site's mail queue, tests/support/registration-links.ts) and its button;
 * the mail is then taken out of the development sink as it arrives, so a test sees the member's mail from there on. Returns its
 * signed-in browser.
 */
export async function registerMember(
  baseUrl: string,
  overrides: Partial<{ email: string; firstName: string; lastName: string; password: string }> = {},
) {
  const browser = new Browser(baseUrl);
  counter += 1;
  const account = {
    email: `member${counter}-${Date.now()}@example.org`,
    password: 'correct horse battery',
    firstName: 'Test',
    lastName: `Member ${counter}`,
    ...overrides,
  };
  const before = registrationLinksQueued(baseUrl, account.email);
  const asked = await browser.post('/api/auth/register', account);
  if (asked.status !== 202) throw new Error(`register failed: ${asked.status} ${JSON.stringify(asked.body)}`);
  const link = await registrationLinkFor(baseUrl, account.email, before);
  const finished = await browser.post(new URL(link).pathname);
  if (finished.status !== 303 || finished.headers.get('location') !== '/')
    throw new Error(`finishing the registration failed: ${finished.status} ${String(finished.body).slice(0, 300)}`);
  const me = await browser.get('/api/auth/user');
  if (me.status !== 200) throw new Error(`the new account is not signed in: ${me.status} ${JSON.stringify(me.body)}`);
  // Not awaited: the worker delivers it when it can, and it leaves the sink within a poll of arriving.
  void takeRegistrationMail(baseUrl, link).catch(() => undefined);
  return { browser, user: me.body as { id: string; email: string; role: string }, account };
}

/** Gives a registered account `role`, as the admin does in User Management. */
export function grantRole(admin: Browser, userId: string, role: 'admin' | 'staff' | 'member' | 'subscriber') {
  return admin.put(`/api/admin/users/${userId}/role`, { role });
}

/** The site's first account (Ada Admin, so its admin) and Stan Staff, made staff by her: a file's moderators. */
export async function registerAdminAndStaff(baseUrl: string) {
  const admin = await registerMember(baseUrl, { firstName: 'Ada', lastName: 'Admin' });
  const staff = await registerMember(baseUrl, { firstName: 'Stan', lastName: 'Staff' });
  await grantRole(admin.browser, staff.user.id, 'staff');
  return { admin, staff };
}

/**
 * One signed-in account of every role, for a test file's site: the first account (the admin), then staff, a member,
 * a second member and a subscriber, promoted and demoted by the admin through the API.
 */
export async function registerCast(baseUrl: string) {
  const { admin, staff } = await registerAdminAndStaff(baseUrl);
  const member = await registerMember(baseUrl, { firstName: 'Mona', lastName: 'Member' });
  const other = await registerMember(baseUrl, { firstName: 'Otto', lastName: 'Other' });
  const subscriber = await registerMember(baseUrl, { firstName: 'Sue', lastName: 'Subscriber' });
  await grantRole(admin.browser, subscriber.user.id, 'subscriber');
  return { admin, staff, member, other, subscriber };
}

/** Each signed-in browser of a cast, by the same names. */
export function browsersOf<Name extends string>(cast: Record<Name, { browser: Browser }>): Record<Name, Browser> {
  return Object.fromEntries(Object.entries<{ browser: Browser }>(cast).map(([name, { browser }]) => [name, browser])) as Record<
    Name,
    Browser
  >;
}
