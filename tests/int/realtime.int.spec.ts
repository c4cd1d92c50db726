/**
 * Change notices reach the right rooms and no others, also when the browser is
 * connected to another API process than the one that made the change; presence
 * and forced disconnection work across processes too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerMember } from '../support/http';

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

async function connect(siteUrl: string, browser?: Browser): Promise<{ socket: Socket; received: string[] }> {
  const cookie = browser?.cookie('bhc.sid');
  const socket = io(siteUrl, { path: '/socket.io', transports: ['websocket'], extraHeaders: cookie ? { cookie: `bhc.sid=${cookie}` } : {} });
  sockets.push(socket);
  const received: string[] = [];
  socket.onAny((message: string, payload: { id?: string }) => received.push(`${message}:${payload?.id ?? ''}`));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
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
    // Let the adapters of both processes settle on the stream before publishing.
    await new Promise((resolve) => setTimeout(resolve, 300));

    first.services.publish({ message: 'pending:changed', rooms: ['staff'], payload: { id: 'p1' } });
    first.services.publish({ message: 'posts:changed', rooms: ['members'], payload: { id: 'p2' } });
    first.services.publish({ message: 'blog:changed', rooms: ['public'], payload: { id: 'p3' } });

    await expect.poll(() => staffSocket.received.length).toBe(3);
    await expect.poll(() => memberSocket.received.length).toBe(2);
    await expect.poll(() => anonymous.received.length).toBe(1);
    expect(staffSocket.received.sort()).toEqual(['blog:changed:p3', 'pending:changed:p1', 'posts:changed:p2']);
    expect(memberSocket.received.sort()).toEqual(['blog:changed:p3', 'posts:changed:p2']);
    expect(anonymous.received).toEqual(['blog:changed:p3']);
  });

  it('shows who is online, and ends a suspended member’s sockets on every process', async () => {
    const admin = new Browser(first.url);
    const adminLogin = await admin.post('/api/auth/login', { email: (await first.services.store.collection('member_credentials').find({}, { limit: 1 }))[0]!.email, password: 'correct horse battery' });
    expect(adminLogin.status).toBe(200);
    const member = await registerMember(first.url);
    const before = await admin.get('/api/admin/users');
    expect(before.body.find((row: { id: string }) => row.id === member.user.id).status).toBe('offline');

    const { socket } = await connect(second.url, member.browser);
    await expect
      .poll(async () => (await admin.get('/api/admin/users')).body.find((row: { id: string }) => row.id === member.user.id).status)
      .toBe('online');

    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    expect((await admin.put(`/api/admin/users/${member.user.id}/suspend`)).status).toBe(200);
    expect(await disconnected).toBe('io server disconnect');
    await expect
      .poll(async () => (await admin.get('/api/admin/users')).body.find((row: { id: string }) => row.id === member.user.id).status)
      .toBe('away');
  });
});
