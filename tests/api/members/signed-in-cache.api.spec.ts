/**
 * Each API process remembers sessions and members (server/http/auth-cache.ts); these changes must still apply on
 * every process at once, from the very next request: a suspension, a role change either way, a sign-out made on
 * another process. Two API processes share the database and Redis, as a load-balanced deployment runs them, and
 * each has already answered the member (so each remembers them) before the change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerMember } from '../../support/http';

let one: TestSite;
let two: TestSite;
let admin: Browser;

beforeAll(async () => {
  one = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000' });
  two = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000' }, one);
  admin = (await registerMember(one.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
});
afterAll(async () => {
  await two?.close();
  await one?.close();
});

/** A member signed in once, their cookie used on both processes, each having answered them already. */
async function rememberedOnBoth() {
  const { browser, user } = await registerMember(one.url);
  const onTwo = browser.at(two.url);
  for (let i = 0; i < 3; i++) {
    expect((await browser.get('/api/auth/user')).status).toBe(200);
    expect((await onTwo.get('/api/auth/user')).status).toBe(200);
  }
  return { onOne: browser, onTwo, user };
}

describe('what each process remembers of who is signed in', () => {
  it('forgets a member suspended on the other process before their next request', async () => {
    const { onOne, onTwo, user } = await rememberedOnBoth();
    expect((await admin.put(`/api/admin/users/${user.id}/suspend`)).status).toBe(200);
    expect((await onTwo.get('/api/auth/user')).status).toBe(401);
    expect((await onOne.get('/api/auth/user')).status).toBe(401);
    expect((await onTwo.post('/api/posts', { content: 'Still here?' })).status).toBe(401);
  });

  it('applies a role change made on the other process from the next request, both ways', async () => {
    const { onTwo, user } = await rememberedOnBoth();
    expect((await onTwo.get('/api/admin/posts/pending')).status).toBe(403);
    expect((await admin.put(`/api/admin/users/${user.id}/role`, { role: 'staff' })).status).toBe(200);
    expect((await onTwo.get('/api/admin/posts/pending')).status).toBe(200);
    expect((await onTwo.get('/api/auth/user')).body.role).toBe('staff');
    expect((await admin.put(`/api/admin/users/${user.id}/role`, { role: 'member' })).status).toBe(200);
    expect((await onTwo.get('/api/admin/posts/pending')).status).toBe(403);
  });

  it('ends a session signed out on one process on the other at once', async () => {
    const { onOne, onTwo } = await rememberedOnBoth();
    const cookie = onOne.cookie('bhc.sid')!;
    expect((await onTwo.post('/api/logout')).status).toBe(204);
    // The old cookie, replayed against the process that did not see the sign-out.
    const replay = await fetch(new URL('/api/auth/user', one.url), { headers: { cookie: `bhc.sid=${cookie}` } });
    expect(replay.status).toBe(401);
  });

  it('renews a session once a day, not on every request', async () => {
    const { onOne } = await rememberedOnBoth();
    // The session's first renewal happened on its first request after sign-in; later ones within the day write nothing.
    const again = await onOne.get('/api/auth/user');
    expect(again.headers.get('set-cookie')).toBeNull();
  });
});
