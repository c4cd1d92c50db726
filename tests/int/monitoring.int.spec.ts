/** Monitoring figures move with reality; /metrics is for admins and the scraper's token only. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerMember } from '../support/http';

let site: TestSite;
let admin: Browser;
const sockets: Socket[] = [];

beforeAll(async () => {
  // Start-up requests on a busy test machine are slow; this file is not about the response-time alert.
  site = await startTestSite({ METRICS_TOKEN: 'scraper-token-0123456789', ALERT_RESPONSE_P95_MS: '10000' });
  admin = (await registerMember(site.url)).browser;
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await site?.close();
});

const figures = async () => (await admin.get('/api/admin/monitoring')).body;

describe('monitoring', () => {
  it('counts active users from open connections', async () => {
    const before = await figures();
    expect(before).toMatchObject({ health: 'healthy', activeUsers: 0, database: { status: 'connected', maxConnections: 10 }, eventStore: { lag: 0 } });
    expect(before.storage.bytes).toBeGreaterThan(1_000_000);
    expect(before.uptimeSeconds).toBeGreaterThanOrEqual(0);

    for (let i = 0; i < 3; i++) {
      const { browser } = await registerMember(site.url);
      const socket = io(site.url, { path: '/socket.io', transports: ['websocket'], extraHeaders: { cookie: `bhc.sid=${browser.cookie('bhc.sid')}` } });
      sockets.push(socket);
      await new Promise((resolve) => socket.once('connect', () => resolve(undefined)));
    }
    await expect.poll(async () => (await figures()).activeUsers).toBe(3);
    expect((await figures()).sockets).toBe(3);
    sockets.pop()!.disconnect();
    await expect.poll(async () => (await figures()).activeUsers).toBe(2);
  });

  it('measures response times of real requests', async () => {
    for (let i = 0; i < 20; i++) await admin.get('/api/auth/user');
    const { responseTimeMs, requestsInWindow } = await figures();
    expect(requestsInWindow).toBeGreaterThanOrEqual(20);
    expect(responseTimeMs.p50).toBeGreaterThan(0);
    expect(responseTimeMs.p95).toBeGreaterThanOrEqual(responseTimeMs.p50);
  });

  it('shows projection lag growing while projections are paused, then falling', async () => {
    await site.services.runner.stop();
    for (let i = 0; i < 150; i++) await site.services.eventStore.append(`noise-${i}`, [{ type: 'Noise', data: {} }], { expectedVersion: 'any' });
    const paused = await figures();
    expect(paused.eventStore.lag).toBeGreaterThanOrEqual(150);
    expect(paused.alerts.map((a: { message: string }) => a.message)).toContainEqual(expect.stringMatching(/behind/));
    expect(paused.health).toBe('warning');
    await site.services.runner.start();
    await expect.poll(async () => (await figures()).eventStore.lag).toBe(0);
    expect((await figures()).health).toBe('healthy');
  });

  it('serves Prometheus metrics to an admin or the scraper token only', async () => {
    expect((await new Browser(site.url).get('/metrics')).status).toBe(401);
    const { browser: member } = await registerMember(site.url);
    expect((await member.get('/metrics')).status).toBe(403);
    const scraped = await new Browser(site.url).request('GET', '/metrics', undefined, { authorization: 'Bearer scraper-token-0123456789' });
    expect(scraped.status).toBe(200);
    expect(scraped.body).toMatch(/^bhc_active_users \d+$/m);
    expect(scraped.body).toMatch(/^bhc_projection_lag_events \d+$/m);
    expect((await new Browser(site.url).request('GET', '/metrics', undefined, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await admin.get('/metrics')).status).toBe(200);
  });
});
