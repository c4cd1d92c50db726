/** Profile pages (GET /api/members/{id}) and the staff's user list search, filters and paging (docs/domain/members.md). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../../support/site';
import { Browser, registerCast, registerMember } from '../../support/http';

let site: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  cast = await registerCast(site.url);
});
afterAll(async () => {
  await site?.close();
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('a member’s profile page', () => {
  let approvedIds: string[];
  let pendingId: string;
  let upcomingId: string;
  let pastId: string;

  beforeAll(async () => {
    const { member, staff } = cast;
    approvedIds = [];
    for (const content of ['First memories of WKBH', `A long story about the transmitter ${'and its tubes '.repeat(30)}`]) {
      const id = (await member.browser.post('/api/posts', { content })).body.id as string;
      expect((await staff.browser.put(`/api/admin/posts/${id}/approve`)).status).toBe(200);
      approvedIds.unshift(id);
    }
    pendingId = (await member.browser.post('/api/posts', { content: 'Still waiting for a moderator' })).body.id;
    const event = async (title: string, start: string) => {
      const id = (await member.browser.post('/api/events', { title, location: 'Studio B', startDate: start, endDate: start })).body
        .id as string;
      expect((await staff.browser.put(`/api/admin/events/${id}/approve`)).status).toBe(200);
      return id;
    };
    upcomingId = await event('Tower tour', inDays(10));
    pastId = await event('Old timers’ lunch', inDays(-10));
    // Not shown: an event waiting for approval, a private one and a cancelled one.
    await member.browser.post('/api/events', { title: 'Pending picnic', startDate: inDays(5), endDate: inDays(5) });
    const privateId = (
      await member.browser.post('/api/events', { title: 'Private session', startDate: inDays(6), endDate: inDays(6), isPublic: false })
    ).body.id;
    await staff.browser.put(`/api/admin/events/${privateId}/approve`);
    const cancelled = await event('Cancelled concert', inDays(7));
    expect((await member.browser.post(`/api/events/${cancelled}/cancel`)).status).toBe(200);
  });

  it('shows who they are, their approved posts newest first and the events they organise, to another member', async () => {
    const { member, other } = cast;
    const response = await other.browser.get(`/api/members/${member.user.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: member.user.id, name: 'Mona Member', avatar: null, role: 'member', bio: '' });
    expect(Date.parse(response.body.joinedAt)).toBeGreaterThan(Date.now() - 10 * 60_000);
    expect(response.body.posts.map((post: { id: string }) => post.id)).toEqual(approvedIds);
    expect(response.body.posts.map((post: { id: string }) => post.id)).not.toContain(pendingId);
    const [long, short] = response.body.posts;
    expect(short).toMatchObject({ excerpt: 'First memories of WKBH', likes: 0, comments: 0 });
    expect(long.excerpt.length).toBeLessThanOrEqual(201);
    expect(long.excerpt.endsWith('…')).toBe(true);
    expect(response.body.events).toEqual([
      { id: upcomingId, title: 'Tower tour', startsAt: expect.any(String), location: 'Studio B' },
      { id: pastId, title: 'Old timers’ lunch', startsAt: expect.any(String), location: 'Studio B' },
    ]);
  });

  it('shows the bio the member wrote about themselves', async () => {
    expect((await cast.other.browser.patch('/api/me', { bio: 'Engineer at KRNT, 1961–1994.\nCollector of QSL cards.' })).status).toBe(200);
    const response = await cast.member.browser.get(`/api/members/${cast.other.user.id}`);
    expect(response.body.bio).toBe('Engineer at KRNT, 1961–1994.\nCollector of QSL cards.');
    expect((await cast.other.browser.patch('/api/me', { bio: '' })).status).toBe(200);
  });

  it('never tells an e-mail address', async () => {
    const response = await cast.other.browser.get(`/api/members/${cast.member.user.id}`);
    expect(JSON.stringify(response.body)).not.toContain('@');
    expect(response.body).not.toHaveProperty('email');
  });

  it('shows the member their own pending post nowhere on their profile either', async () => {
    const own = await cast.member.browser.get(`/api/members/${cast.member.user.id}`);
    expect(own.body.posts.map((post: { id: string }) => post.id)).not.toContain(pendingId);
  });

  it('answers an empty page for a member who wrote and organised nothing', async () => {
    const response = await cast.member.browser.get(`/api/members/${cast.other.user.id}`);
    expect(response.body).toMatchObject({ name: 'Otto Other', posts: [], events: [] });
  });

  it('is for signed-in members only', async () => {
    expect((await new Browser(site.url).get(`/api/members/${cast.member.user.id}`)).status).toBe(401);
    expect((await cast.subscriber.browser.get(`/api/members/${cast.member.user.id}`)).status).toBe(200);
  });

  it('answers 404 for an unknown member, whatever the id looks like', async () => {
    for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
      const response = await cast.member.browser.get(`/api/members/${id}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'Member not found' });
    }
  });

  it('hides a suspended member from members, not from staff', async () => {
    const suspended = await registerMember(site.url, { firstName: 'Sam', lastName: 'Suspended' });
    expect((await cast.staff.browser.put(`/api/admin/users/${suspended.user.id}/suspend`)).status).toBe(200);
    expect((await cast.member.browser.get(`/api/members/${suspended.user.id}`)).status).toBe(404);
    const staffView = await cast.staff.browser.get(`/api/members/${suspended.user.id}`);
    expect(staffView.status).toBe(200);
    expect(staffView.body.name).toBe('Sam Suspended');
  });
});

describe('the staff’s user list: search, filters and paging', () => {
  type Row = { id: string; name: string; email: string; role: string; status: string; suspended: boolean };
  const names = (rows: Row[]) => rows.map((row) => row.name).sort();
  let wanda: Awaited<ReturnType<typeof registerMember>>;
  let walter: Awaited<ReturnType<typeof registerMember>>;

  beforeAll(async () => {
    wanda = await registerMember(site.url, { firstName: 'Wanda', lastName: 'Wireless', email: `wanda.radio-${Date.now()}@Example.org` });
    walter = await registerMember(site.url, { firstName: 'Walter', lastName: 'Wavelength', email: `ww-${Date.now()}@tower.example.net` });
    await cast.admin.browser.put(`/api/admin/users/${walter.user.id}/role`, { role: 'staff' });
    await cast.admin.browser.put(`/api/admin/users/${wanda.user.id}/suspend`);
  });

  const list = async (query: string, who: Browser = cast.admin.browser) => {
    const response = await who.get(`/api/admin/users?${query}`);
    expect(response.status).toBe(200);
    return response.body as { items: Row[]; nextCursor: string | null };
  };

  it('finds members by a part of their name, any case, and by several words', async () => {
    expect(names((await list('q=WIRE')).items)).toEqual(['Wanda Wireless']);
    expect(names((await list('q=wa')).items)).toEqual(['Walter Wavelength', 'Wanda Wireless']);
    expect(names((await list(`q=${encodeURIComponent('wanda wire')}`)).items)).toEqual(['Wanda Wireless']);
    expect((await list('q=nobody-like-this')).items).toEqual([]);
  });

  it('finds members by a part of their e-mail address', async () => {
    expect(names((await list('q=tower.EXAMPLE')).items)).toEqual(['Walter Wavelength']);
    expect(names((await list('q=radio-')).items)).toEqual(['Wanda Wireless']);
  });

  it('takes what is typed literally, never as a pattern', async () => {
    expect((await list(`q=${encodeURIComponent('.*')}`)).items).toEqual([]);
    expect((await list(`q=${encodeURIComponent('w(')}`)).items).toEqual([]);
  });

  it('filters by role and by suspension, alone and together with a search', async () => {
    const staffRows = (await list('role=staff')).items;
    expect(names(staffRows)).toEqual(['Stan Staff', 'Walter Wavelength']);
    expect(names((await list('role=staff&q=wave')).items)).toEqual(['Walter Wavelength']);
    expect(names((await list('suspended=true')).items)).toContain('Wanda Wireless');
    expect((await list('suspended=true')).items.every((row) => row.suspended)).toBe(true);
    expect(names((await list('suspended=false&q=wa')).items)).toEqual(['Walter Wavelength']);
  });

  it('filters by presence: with no socket open, all are offline', async () => {
    expect((await list('status=online')).items).toEqual([]);
    expect((await list('status=away')).items).toEqual([]);
    const offline = await list('status=offline&limit=100');
    expect(offline.items.length).toBeGreaterThan(5);
    expect(offline.items.every((row) => row.status === 'offline')).toBe(true);
  });

  it('filters by presence as the rows show it: online with a socket open, away when it closed lately', async () => {
    const { presence } = site.services;
    await presence.connected(walter.user.id);
    await presence.connected(cast.member.user.id);
    await presence.disconnected(cast.member.user.id);
    try {
      const online = (await list('status=online')).items;
      expect(online.map((row) => [row.name, row.status])).toEqual([['Walter Wavelength', 'online']]);
      expect((await list('online=true')).items.map((row) => row.name)).toEqual(['Walter Wavelength']);
      expect((await list('status=away')).items.map((row) => [row.name, row.status])).toEqual([['Mona Member', 'away']]);
      const offline = (await list('status=offline&limit=100')).items.map((row) => row.name);
      expect(offline).not.toContain('Walter Wavelength');
      expect(offline).not.toContain('Mona Member');
      expect(offline).toContain('Otto Other');
      expect((await list('status=online&role=member')).items).toEqual([]);
    } finally {
      await presence.disconnected(walter.user.id);
    }
  });

  it('pages with a cursor, newest first, without repeating or skipping anyone', async () => {
    const everyone = (await list('limit=100')).items.map((row) => row.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Row[]; nextCursor: string | null } = await list(
        `limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((row) => row.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(everyone);
    const filtered = await list('q=wa&limit=1');
    expect(filtered.items).toHaveLength(1);
    expect(filtered.items[0]!.name).toBe('Walter Wavelength');
    const rest = await list(`q=wa&limit=1&cursor=${encodeURIComponent(filtered.nextCursor!)}`);
    expect(rest.items.map((row) => row.name)).toEqual(['Wanda Wireless']);
    expect(rest.nextCursor).toBeNull();
  });

  it('refuses bad filters with a message per field', async () => {
    const response = await cast.admin.browser.get('/api/admin/users?role=emperor&status=busy');
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.fields)).toEqual(expect.arrayContaining(['role', 'status']));
  });

  it('is for staff and admins; members get 403', async () => {
    expect(names((await list('q=wireless', cast.staff.browser)).items)).toEqual(['Wanda Wireless']);
    expect((await cast.member.browser.get('/api/admin/users?q=wa')).status).toBe(403);
    expect((await new Browser(site.url).get('/api/admin/users?q=wa')).status).toBe(401);
  });
});
