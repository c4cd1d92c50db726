/**
 * Calls every declared route as anonymous, subscriber, member, staff and admin
 * and checks the answer against the route's own access declaration: nobody is
 * let through who should not be, and nobody allowed is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerMember } from '../support/http';
import { buildApp } from '../../server/app';
import { rolesOf, type RouteAccess } from '../../server/http/access';
import type { Role } from '../../shared/domain';

let site: TestSite;
let routes: RouteAccess[];
const browsers = new Map<Role | 'anonymous', Browser>();

/** Routes that end the caller's session; checked with a throw-away session. */
const SIGNS_OUT = new Set(['/api/logout']);
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_POST_MAX: '1000' });
  ({ routes } = await buildApp(site.services, { logger: false }));
  const admin = await registerMember(site.url);
  browsers.set('admin', admin.browser);
  browsers.set('anonymous', new Browser(site.url));
  for (const role of ['staff', 'member', 'subscriber'] as const) {
    const { browser, user } = await registerMember(site.url);
    if (role !== 'member') expect((await admin.browser.put(`/api/admin/users/${user.id}/role`, { role })).status).toBe(200);
    browsers.set(role, browser);
  }
});
afterAll(async () => {
  await site?.close();
});

function concretePath(url: string): string {
  return url.replace(/:(\w+)/g, (_match, name: string) => (name === 'token' ? 'unknown-token' : name === 'tab' ? 'moderation' : UNKNOWN_ID)).replace('/*', '/some/page');
}

function allowed(access: RouteAccess['access'], who: Role | 'anonymous'): 'yes' | 'unauthenticated' | 'forbidden' {
  if (access === 'public') return 'yes';
  if (who === 'anonymous') return 'unauthenticated';
  if (access === 'signed-in') return 'yes';
  return rolesOf(access).includes(who) ? 'yes' : 'forbidden';
}

describe('authorization matrix', () => {
  it('declares access for a non-trivial set of routes', () => {
    expect(routes.length).toBeGreaterThan(10);
  });

  it('answers every route as its declaration says, for every role', async () => {
    const mismatches: string[] = [];
    for (const route of routes) {
      for (const who of ['anonymous', 'subscriber', 'member', 'staff', 'admin'] as const) {
        let browser = browsers.get(who)!;
        if (SIGNS_OUT.has(route.url) && who !== 'anonymous') browser = (await registerMember(site.url)).browser;
        const body = route.method === 'GET' ? undefined : {};
        const { status } = await browser.request(route.method, concretePath(route.url), body);
        const expected = allowed(route.access, who);
        const ok = expected === 'yes' ? status !== 401 && status !== 403 && status < 500 : status === (expected === 'unauthenticated' ? 401 : 403);
        if (!ok) mismatches.push(`${route.method} ${route.url} as ${who}: ${status}, expected ${expected}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
