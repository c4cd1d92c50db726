/**
 * Change notices reach the right rooms and no others, also when the browser is
 * connected to another API process than the one that made the change; presence
 * and forced disconnection work across processes too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { connectSocket } from '../support/sockets';
import { Redis } from 'ioredis';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerMember } from '../support/http';
import { testRedisPrefix } from '../support/database';
import { createNoticePublisher } from '../../platform/realtime/notices';
import { ROOMS } from '../../shared/socket-messages';
import { createPresence } from '../../server/realtime/presence';
import { subscriptionToken } from '../../platform/mail/link-tokens';
import { createServer } from 'node:http';
import type { AddressInfo, Socket as NetSocket } from 'node:net';
import { Server } from 'socket.io';
import type { SocketServer } from '../../platform/realtime/notices';
import { coalesceWrites } from '../../server/realtime/gateway';

let first: TestSite;
let second: TestSite;
const sockets: Socket[] = [];

beforeAll(async () => {
  first = await startTestSite();
  second = await startTestSite({}, first);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await second?.close();
  await first?.close();
});

async function connect(siteUrl: string, browser?: Browser | { forgedCookie: string }): Promise<{ socket: Socket; received: string[] }> {
  const received: string[] = [];
  const socket = await connectSocket(siteUrl, sockets, browser instanceof Browser ? browser : browser?.forgedCookie, (socket) =>
    socket.onAny((message: string, payload: { id?: string }) => received.push(`${message}:${payload?.id ?? ''}`)),
  );
  return { socket, received };
}

describe('realtime', () => {
  it('delivers each notice to its rooms only, across API processes', async () => {
    const admin = await registerMember(first.url);
    const staff = await registerMember(first.url);
    const member = await registerMember(first.url);
    await admin.browser.put(`/api/admin/users/${staff.user.id}/role`, { role: 'staff' });

    const staffSocket = await connect(second.url, staff.browser);
    const memberSocket = await connect(first.url, member.browser);
    const anonymous = await connect(second.url);
    const forged = await connect(first.url, { forgedCookie: 'not-a-session.forged' });
    // A publisher of its own, with no HTTP server, as the projections role runs it.
    const redis = new Redis('redis://127.0.0.1:6379');
    const publisher = createNoticePublisher(redis, first.services.config.redisPrefix);
    try {
      // Let the adapters of every process settle on the stream before publishing.
      await new Promise((resolve) => setTimeout(resolve, 300));

      publisher.publish({ message: 'events:changed', rooms: [ROOMS.staff], payload: { id: 'p1', kind: 'created' } });
      publisher.publish({ message: 'posts:changed', rooms: [ROOMS.members], payload: { id: 'p2', kind: 'created' } });
      publisher.publish({ message: 'blog:changed', rooms: [ROOMS.public], payload: { id: 'p3', kind: 'created' } });
      publisher.publish({ message: 'subscriptions:changed', rooms: [ROOMS.member(member.user.id)], payload: { id: 'p4' } });

      // The test's own notices (p1…p4): the site's own (a member registered, a role changed) may still reach the staff room.
      const ours = (socket: { received: string[] }) => socket.received.filter((entry) => /:p\d$/u.test(entry)).sort();
      await expect.poll(() => ours(staffSocket).length).toBe(3);
      await expect.poll(() => ours(memberSocket).length).toBe(3);
      await expect.poll(() => ours(anonymous).length).toBe(1);
      await expect.poll(() => ours(forged).length).toBe(1);
      // Anything stray would have arrived with the last expected notice; give it a moment more anyway.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(ours(staffSocket)).toEqual(['blog:changed:p3', 'events:changed:p1', 'posts:changed:p2']);
      expect(ours(memberSocket)).toEqual(['blog:changed:p3', 'posts:changed:p2', 'subscriptions:changed:p4']);
      expect(ours(anonymous)).toEqual(['blog:changed:p3']);
      expect(ours(forged)).toEqual(['blog:changed:p3']);
    } finally {
      await publisher.close();
      redis.disconnect();
    }

    // Both signed-in members are online, whichever process they are connected to; anonymous sockets are nobody.
    await expect.poll(async () => (await first.services.presence.online()).sort()).toEqual([member.user.id, staff.user.id].sort());
    memberSocket.socket.disconnect();
    await expect.poll(() => second.services.presence.online()).toEqual([staff.user.id]);
    const statuses = await second.services.presence.statuses([member.user.id, staff.user.id, admin.user.id]);
    expect(Object.fromEntries(statuses)).toEqual({ [member.user.id]: 'away', [staff.user.id]: 'online', [admin.user.id]: 'offline' });
  });

  it('shows who is online, and ends a suspended member’s sockets on every process', async () => {
    const admin = new Browser(first.url);
    const adminLogin = await admin.post('/api/auth/login', {
      email: (await first.services.store.collection('member_credentials').find({}, { limit: 1 }))[0]!.email,
      password: 'correct horse battery',
    });
    expect(adminLogin.status).toBe(200);
    const member = await registerMember(first.url);
    const before = await admin.get('/api/admin/users');
    expect(before.body.items.find((row: { id: string }) => row.id === member.user.id).status).toBe('offline');

    const { socket } = await connect(second.url, member.browser);
    await expect
      .poll(async () => (await admin.get('/api/admin/users')).body.items.find((row: { id: string }) => row.id === member.user.id).status)
      .toBe('online');

    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    expect((await admin.put(`/api/admin/users/${member.user.id}/suspend`)).status).toBe(200);
    expect(await disconnected).toBe('io server disconnect');
    await expect
      .poll(async () => (await admin.get('/api/admin/users')).body.items.find((row: { id: string }) => row.id === member.user.id).status)
      .toBe('away');
  });

  it('ends a member’s sockets on every process when their role changes; a new socket joins the new role’s rooms only', async () => {
    const admin = new Browser(first.url);
    const adminEmail = (await first.services.store.collection('member_credentials').find({}, { limit: 1 }))[0]!.email;
    expect((await admin.post('/api/auth/login', { email: adminEmail, password: 'correct horse battery' })).status).toBe(200);
    const staff = await registerMember(first.url);
    expect((await admin.put(`/api/admin/users/${staff.user.id}/role`, { role: 'staff' })).status).toBe(200);
    const { socket } = await connect(second.url, staff.browser);

    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    expect((await admin.put(`/api/admin/users/${staff.user.id}/role`, { role: 'member' })).status).toBe(200);
    expect(await disconnected).toBe('io server disconnect');

    // Same session, new socket: the rooms of a member now.
    const again = await connect(second.url, staff.browser);
    const redis = new Redis('redis://127.0.0.1:6379');
    const publisher = createNoticePublisher(redis, first.services.config.redisPrefix);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      publisher.publish({ message: 'events:changed', rooms: [ROOMS.staff], payload: { id: 'staff-only', kind: 'updated' } });
      publisher.publish({ message: 'posts:changed', rooms: [ROOMS.members], payload: { id: 'members', kind: 'updated' } });
      await expect.poll(() => again.received.length).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(again.received).toEqual(['posts:changed:members']);
    } finally {
      await publisher.close();
      redis.disconnect();
    }
  });

  it('tells staff only about captured mail, and a member only about their own subscriptions, on every process', async () => {
    const admin = new Browser(first.url);
    const adminEmail = (await first.services.store.collection('member_credentials').find({}, { limit: 1 }))[0]!.email;
    expect((await admin.post('/api/auth/login', { email: adminEmail, password: 'correct horse battery' })).status).toBe(200);
    const staff = await registerMember(first.url);
    await admin.put(`/api/admin/users/${staff.user.id}/role`, { role: 'staff' });
    const owner = await registerMember(first.url);
    const other = await registerMember(first.url);

    const staffSocket = await connect(second.url, staff.browser);
    const ownerHere = await connect(first.url, owner.browser);
    const ownerThere = await connect(second.url, owner.browser);
    const otherSocket = await connect(first.url, other.browser);
    const members = [ownerHere, ownerThere, otherSocket];
    const of = (socket: { received: string[] }, message: string) => socket.received.filter((entry) => entry.startsWith(`${message}:`));
    await new Promise((resolve) => setTimeout(resolve, 300));

    // The SMTP sink runs in the workers role (the first process); the staff socket is on the second.
    await first.services.mail.enqueue(`realtime-${Date.now()}`, {
      to: 'listener@example.org',
      subject: 'Sign-off tonight',
      text: 'At midnight.',
      html: '<p>At midnight.</p>',
    });
    await expect.poll(() => of(staffSocket, 'mailbox:changed').length).toBeGreaterThan(0);

    const created = await owner.browser.post('/api/subscriptions', { subscriptionType: 'newsfeed', frequency: 'daily' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await expect
      .poll(() => [of(ownerHere, 'subscriptions:changed'), of(ownerThere, 'subscriptions:changed')])
      .toEqual([[`subscriptions:changed:${id}`], [`subscriptions:changed:${id}`]]);
    // An unsubscribe through the link in a mail (no session) reaches the owner's open pages too.
    const token = subscriptionToken(first.services.config.subscriptionLinkSecret, id);
    expect((await new Browser(first.url).post(`/api/unsubscribe/${token}`, {})).status).toBe(200);
    await expect.poll(() => of(ownerHere, 'subscriptions:changed').length).toBe(2);
    await expect.poll(() => of(ownerThere, 'subscriptions:changed').length).toBe(2);
    // A guest's subscription has no owner to tell.
    expect(
      (
        await new Browser(first.url).post('/api/subscribe', {
          email: `guest-${Date.now()}@example.org`,
          subscriptionType: 'all',
          frequency: 'weekly',
        })
      ).status,
    ).toBe(202);

    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(of(otherSocket, 'subscriptions:changed')).toEqual([]);
    expect(of(staffSocket, 'subscriptions:changed')).toEqual([]);
    for (const member of members) expect(of(member, 'mailbox:changed')).toEqual([]);
    expect(of(ownerHere, 'subscriptions:changed')).toHaveLength(2);
  });

  it('counts a member online while any process holds a socket, and forgets a process that died without closing', async () => {
    const redis = new Redis('redis://127.0.0.1:6379');
    const prefix = testRedisPrefix();
    let clock = 1_000_000;
    const now = () => clock;
    const a = createPresence(redis, prefix, now);
    const b = createPresence(redis, prefix, now);
    try {
      await a.connected('ada');
      await b.connected('ada');
      await b.connected('bob');
      await b.connected('bob');
      await b.disconnected('bob');
      await b.disconnected('ada');
      expect((await a.online()).sort()).toEqual(['ada', 'bob']);

      // Process a dies: no disconnects, no more heartbeats. b lives on.
      clock += 40_000;
      await b.heartbeat();
      clock += 40_000;
      await b.heartbeat();
      expect(await b.online()).toEqual(['bob']);
      expect(Object.fromEntries(await b.statuses(['ada', 'bob', 'cy']))).toEqual({ ada: 'away', bob: 'online', cy: 'offline' });

      await b.disconnected('bob');
      clock += 15 * 60_000 + 1;
      await b.heartbeat();
      expect(await b.online()).toEqual([]);
      expect(Object.fromEntries(await b.statuses(['ada', 'bob']))).toEqual({ ada: 'offline', bob: 'offline' });
      // Nothing of the dead process or the long gone is left behind.
      expect(await redis.zcard(`${prefix}:presence:sockets`)).toBe(0);
      expect(await redis.zcard(`${prefix}:presence:seen`)).toBe(0);
    } finally {
      await redis.del(`${prefix}:presence:sockets`, `${prefix}:presence:seen`);
      await redis.quit();
    }
  });
});

describe('realtime writes', () => {
  /**
   * A socket.io server of its own with the gateway's write coalescing (server/realtime/gateway.ts), a socket connected
   * over WebSocket, and the writes made to that socket's TCP connection on the server's side counted.
   */
  async function countedConnection() {
    const httpServer = createServer();
    const io: SocketServer = new Server(httpServer, { path: '/socket.io' });
    coalesceWrites(io);
    let tcp: NetSocket | undefined;
    httpServer.on('upgrade', (_request, socket: NetSocket) => {
      tcp = socket;
    });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
    const heard: string[] = [];
    const socket = await connectSocket(url, sockets, undefined, (s) => s.on('posts:changed', ({ id }: { id: string }) => heard.push(id)));
    const counted = { writes: 0 };
    const connection = tcp!;
    for (const method of ['_write', '_writev'] as const) {
      const original = connection[method]!.bind(connection) as (...args: unknown[]) => void;
      connection[method] = ((...args: unknown[]) => {
        counted.writes += 1;
        original(...args);
      }) as never;
    }
    return {
      io,
      heard,
      counted,
      async close() {
        socket.disconnect();
        await io.close();
      },
    };
  }

  it('sends the notices of one turn to a socket in one write, in their order', async () => {
    const { io, heard, counted, close } = await countedConnection();
    try {
      io.emit('posts:changed', { id: 'first', kind: 'created' });
      io.emit('posts:changed', { id: 'second', kind: 'created' });
      io.emit('posts:changed', { id: 'third', kind: 'created' });
      await expect.poll(() => heard).toEqual(['first', 'second', 'third']);
      expect(counted.writes).toBe(1);

      // Alone in its turn, a notice leaves alone, at once.
      io.emit('posts:changed', { id: 'fourth', kind: 'created' });
      await expect.poll(() => heard.length).toBe(4);
      expect(counted.writes).toBe(2);
    } finally {
      await close();
    }
  });
});
