/**
 * The realtime role apart from the api role (ROLES=api,… beside ROLES=realtime): the API's HTTP server serves no
 * socket; the realtime process's does, knows members by the API's session cookie, delivers the notices the
 * projections send, and ends a member's sockets when the API suspends them. Notices delivered in one turn of its
 * event loop (written to each connection in one go) all arrive, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { connectSocket } from '../support/sockets';
import { startTestSite, type TestSite } from '../support/site';
import { registerMember } from '../support/http';
import { startRealtimeServer } from '../../server/realtime/server';
import { createNoticePublisher } from '../../platform/realtime/notices';
import { ROOMS } from '../../shared/socket-messages';

let site: TestSite;
let realtime: Awaited<ReturnType<typeof startRealtimeServer>>;
let realtimeUrl: string;
let admin: Awaited<ReturnType<typeof registerMember>>;
const sockets: Socket[] = [];

beforeAll(async () => {
  site = await startTestSite({ ROLES: 'api,projections,workers' });
  realtime = await startRealtimeServer(site.services, pino({ level: 'warn' }), { port: 0, host: '127.0.0.1' });
  realtimeUrl = `http://127.0.0.1:${realtime.port}`;
  // The site's first member is its admin.
  admin = await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await realtime?.close();
  await site?.close();
});

describe('the realtime role on its own', () => {
  it('serves the sockets the API process no longer serves, and answers its health checks', async () => {
    await expect(connectSocket(site.url, sockets)).rejects.toThrow();
    expect((await fetch(`${realtimeUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${realtimeUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${realtimeUrl}/api/posts`)).status).toBe(404);
  });

  it('delivers the projections’ notices to members (by the API’s session) and visitors, and notices of one turn in order', async () => {
    const member = await registerMember(site.url);
    const heard = { member: [] as string[], visitor: [] as string[] };
    const hear = (into: string[]) => (socket: Socket) =>
      socket.onAny((message: string, payload: { id?: string }) => into.push(`${message}:${payload?.id ?? ''}`));
    await connectSocket(realtimeUrl, sockets, member.browser, hear(heard.member));
    await connectSocket(realtimeUrl, sockets, undefined, hear(heard.visitor));

    const { status, body } = await admin.browser.post('/api/posts', { content: 'Heard through the realtime process' });
    expect(status).toBe(201);
    await expect.poll(() => heard.visitor).toContain(`posts:changed:${body.id}`);
    await expect.poll(() => heard.member).toContain(`posts:changed:${body.id}`);

    // Several notices published at once reach the realtime process in one read of the stream: one write each.
    const redis = new Redis('redis://127.0.0.1:6379');
    const publisher = createNoticePublisher(redis, site.services.config.redisPrefix);
    try {
      const ids = Array.from({ length: 20 }, (_, i) => `burst-${i}`);
      for (const id of ids) publisher.publish({ message: 'blog:changed', rooms: [ROOMS.public], payload: { id, kind: 'updated' } });
      publisher.publish({ message: 'subscriptions:changed', rooms: [ROOMS.member(member.user.id)], payload: { id: 'mine' } });
      const expected = ids.map((id) => `blog:changed:${id}`);
      await expect.poll(() => heard.visitor.filter((notice) => notice.startsWith('blog:'))).toEqual(expected);
      await expect
        .poll(() => heard.member.filter((notice) => /^(blog|subscriptions):/.test(notice)))
        .toEqual([...expected, 'subscriptions:changed:mine']);
      expect(heard.visitor).not.toContain('subscriptions:changed:mine');
    } finally {
      await publisher.close();
      redis.disconnect();
    }
  });

  it('ends a member’s socket on the realtime process when the API suspends them', async () => {
    const member = await registerMember(site.url);
    const socket = await connectSocket(realtimeUrl, sockets, member.browser);
    await expect.poll(() => site.services.presence.online()).toContain(member.user.id);
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    expect((await admin.browser.put(`/api/admin/users/${member.user.id}/suspend`)).status).toBe(200);
    expect(await disconnected).toBe('io server disconnect');
  });
});
