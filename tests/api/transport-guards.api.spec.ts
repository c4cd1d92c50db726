/**
 * Guards at the transport: a socket handshake from another site's page is refused (a member's cookie would otherwise
 * let any page hear their notices); a request body trickled in is cut off after the request timeout instead of
 * holding its connection; an idle kept-alive connection is not closed under a client about to reuse it; and what a
 * signed-in member is answered in JSON is not kept by any cache.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../support/site';
import { registerMember } from '../support/http';

let site: TestSite;
let cookie: string;

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  const { browser } = await registerMember(site.url);
  cookie = browser.cookie('bhc.sid')!;
});
afterAll(async () => {
  await site?.close();
});

function handshake(origin?: string): Promise<'connected' | string> {
  const socket = io(site.url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: { cookie: `bhc.sid=${cookie}`, ...(origin ? { origin } : {}) },
  });
  return new Promise((resolve) => {
    socket.on('connect', () => {
      socket.close();
      resolve('connected');
    });
    socket.on('connect_error', (error) => {
      socket.close();
      resolve(error.message);
    });
  });
}

describe('the socket handshake', () => {
  it('is refused from another site’s page, and taken from the site’s own and from clients that are no browser', async () => {
    expect(await handshake('https://attacker.example')).toBe('This connection must come from the site itself');
    expect(await handshake(new URL(site.services.config.publicUrl).origin)).toBe('connected');
    expect(await handshake()).toBe('connected');
  });
});

describe('a body trickled in', () => {
  it('is cut off with its connection once the request timeout has passed', { timeout: 15_000 }, async () => {
    expect(site.services.config.requestTimeoutMs).toBe(60_000);
    const quick = await startTestSite({ REQUEST_TIMEOUT_MS: '1000' }, site);
    const socket = connect(Number(new URL(quick.url).port), '127.0.0.1');
    try {
      const started = Date.now();
      const closed = new Promise<string>((resolve) => {
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => resolve(answer));
      });
      socket.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":');
      const timer = setInterval(() => socket.write(' '), 100);
      const answer = await closed;
      clearInterval(timer);
      expect(answer).toMatch(/^HTTP\/1\.1 408/u);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      socket.destroy();
      await quick.close();
    }
  });
});

describe('a kept-alive connection', () => {
  it('is still open for the next request after more than Node’s 5 s of idling', { timeout: 15_000 }, async () => {
    const socket = connect(Number(new URL(site.url).port), '127.0.0.1');
    const answers: string[] = [];
    let closed = false;
    socket.on('data', (chunk) => answers.push(chunk.toString()));
    socket.on('close', () => (closed = true));
    const ask = () => socket.write('GET /api/site HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    try {
      ask();
      await expect.poll(() => answers.join('')).toMatch(/^HTTP\/1\.1 200/u);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(closed).toBe(false);
      ask();
      await expect.poll(() => answers.join('').match(/HTTP\/1\.1 200/gu)?.length).toBe(2);
    } finally {
      socket.destroy();
    }
  });
});

describe('answers to a member', () => {
  it('carry Cache-Control: private, no-store when the route sets none', async () => {
    const response = await fetch(new URL('/api/auth/user', site.url), { headers: { cookie: `bhc.sid=${cookie}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const notifications = await fetch(new URL('/api/notifications', site.url), { headers: { cookie: `bhc.sid=${cookie}` } });
    expect(notifications.headers.get('cache-control')).toMatch(/^private, no-(store|cache)$/u);
  });
});
