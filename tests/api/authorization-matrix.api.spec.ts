/**
 * Calls every declared route as anonymous, a suspended member, subscriber,
 * member, staff and admin and checks the answer against the route's own access
 * declaration: nobody is let through who should not be, and nobody allowed is
 * refused. The suspended member calls with the session they had when they were
 * suspended, which suspension ended: to every route that is not public they are
 * nobody (401).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../support/site';
import { Browser, registerMember } from '../support/http';
import { rolesOf, type RouteAccess } from '../../server/http/access';
import type { Role } from '../../shared/domain';

type Caller = Role | 'anonymous' | 'suspended';
const CALLERS: readonly Caller[] = ['anonymous', 'suspended', 'subscriber', 'member', 'staff', 'admin'];

let site: TestSite;
const browsers = new Map<Caller, Browser>();
let suspendedId: string;

/** Routes that end the caller's session; checked with a throw-away session (of a new suspended member for `suspended`). */
const SIGNS_OUT = new Set(['/api/logout']);
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  const admin = await registerMember(site.url);
  browsers.set('admin', admin.browser);
  browsers.set('anonymous', new Browser(site.url));
  for (const role of ['staff', 'member', 'subscriber'] as const) {
    const { browser, user } = await registerMember(site.url);
    if (role !== 'member') expect((await admin.browser.put(`/api/admin/users/${user.id}/role`, { role })).status).toBe(200);
    browsers.set(role, browser);
  }
  const suspended = await suspendedMember();
  suspendedId = suspended.id;
  browsers.set('suspended', suspended.browser);
});

/** A member signed in when staff suspended them, still holding that session's cookie. */
async function suspendedMember() {
  const { browser, user } = await registerMember(site.url);
  expect((await browsers.get('admin')!.put(`/api/admin/users/${user.id}/suspend`)).status).toBe(200);
  return { browser, id: user.id };
}
afterAll(async () => {
  await site?.close();
});

function concretePath(url: string): string {
  return url
    .replace(/:(\w+)/g, (_match, name: string) => (name === 'token' ? 'unknown-token' : name === 'tab' ? 'moderation' : UNKNOWN_ID))
    .replace('/*', '/some/page');
}

function allowed(access: RouteAccess['access'], who: Caller): 'yes' | 'unauthenticated' | 'forbidden' {
  if (access === 'public') return 'yes';
  if (who === 'anonymous' || who === 'suspended') return 'unauthenticated';
  if (access === 'signed-in') return 'yes';
  return rolesOf(access).includes(who) ? 'yes' : 'forbidden';
}

describe('authorization matrix', () => {
  it('declares access for a non-trivial set of routes, the mailbox included', () => {
    expect(site.routes.length).toBeGreaterThan(10);
    expect(site.routes.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining(['GET /api/admin/mailbox', 'GET /api/admin/mailbox/:id']),
    );
  });

  it('answers every route as its declaration says, for every role', async () => {
    const mismatches: string[] = [];
    for (const route of site.routes) {
      for (const who of CALLERS) {
        let browser = browsers.get(who)!;
        if (SIGNS_OUT.has(route.url) && who !== 'anonymous')
          browser = who === 'suspended' ? (await suspendedMember()).browser : (await registerMember(site.url)).browser;
        const body = route.method === 'GET' || route.method === 'HEAD' ? undefined : {};
        const { status } = await browser.request(route.method, concretePath(route.url), body);
        const expected = allowed(route.access, who);
        const ok =
          expected === 'yes' ? status !== 401 && status !== 403 && status < 500 : status === (expected === 'unauthenticated' ? 401 : 403);
        if (!ok) mismatches.push(`${route.method} ${route.url} as ${who}: ${status}, expected ${expected}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("ends a suspended member's sessions: lifting the suspension does not sign the old one back in", async () => {
    expect((await browsers.get('admin')!.put(`/api/admin/users/${suspendedId}/unsuspend`)).status).toBe(200);
    try {
      expect((await browsers.get('suspended')!.get('/api/auth/user')).status).toBe(401);
      expect((await browsers.get('suspended')!.get('/api/auth/session')).body).toEqual({ user: null });
    } finally {
      expect((await browsers.get('admin')!.put(`/api/admin/users/${suspendedId}/suspend`)).status).toBe(200);
    }
  });
});

describe('who is signed in, as the web app asks', () => {
  it('answers a visitor with no member, not a 401, and a member with themselves', async () => {
    const visitor = await browsers.get('anonymous')!.get('/api/auth/session');
    expect(visitor.status).toBe(200);
    expect(visitor.body).toEqual({ user: null });
    const admin = browsers.get('admin')!;
    expect((await admin.get('/api/auth/session')).body).toEqual({ user: (await admin.get('/api/auth/user')).body });
  });
});
