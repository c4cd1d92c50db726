/**
 * The whole site as its people see it: every page of client/router.tsx for each role that has it, at a desktop
 * and a phone size, on a site seeded through the real API so no page is empty. The accessibility tour
 * (tests/soak/tour-desktop.soak.ts and tour-phone.soak.ts) and the screenshot tour (`npm run screenshots`) both walk this one list.
 */
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { newContext } from './browser';
import { registerCast } from './http';

export const TOUR_ROLES = ['guest', 'member', 'staff', 'admin'] as const;
export type TourRole = (typeof TOUR_ROLES)[number];

export const TOUR_SIZES = {
  desktop: { width: 1366, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
export type TourSize = keyof typeof TOUR_SIZES;

export type TourSeed = Awaited<ReturnType<typeof seedTour>>;

export interface TourPage {
  name: string;
  path: (seed: TourSeed) => string;
  roles: readonly TourRole[];
}

const EVERYONE: readonly TourRole[] = TOUR_ROLES;
const SIGNED_IN: readonly TourRole[] = ['member', 'staff', 'admin'];
const STAFF: readonly TourRole[] = ['staff', 'admin'];
const at = (path: string) => () => path;

export const TOUR: readonly TourPage[] = [
  { name: 'home', path: at('/'), roles: EVERYONE },
  { name: 'sign-in', path: at('/login'), roles: ['guest'] },
  { name: 'register', path: at('/register'), roles: ['guest'] },
  { name: 'unsubscribe-without-link', path: at('/unsubscribe'), roles: ['guest'] },
  ...['about', 'contact', 'privacy', 'terms', 'guidelines', 'help', 'support', 'subscribe'].map((slug) => ({
    name: slug,
    path: at(`/${slug}`),
    roles: EVERYONE,
  })),
  { name: 'embed-feed', path: at('/embed'), roles: ['guest'] },
  { name: 'embed-calendar', path: at('/embed/calendar'), roles: ['guest'] },
  { name: 'embed-blog', path: at('/embed/blog'), roles: ['guest'] },
  // Public too: a visitor reads them in the public-site layout.
  { name: 'blog', path: at('/blog'), roles: EVERYONE },
  { name: 'blog-post', path: (seed) => `/blog/${seed.blogPostId}`, roles: EVERYONE },
  { name: 'calendar', path: at('/calendar'), roles: EVERYONE },
  { name: 'subscription-settings', path: at('/subscription-settings'), roles: SIGNED_IN },
  { name: 'discussions', path: at('/discussions'), roles: SIGNED_IN },
  { name: 'trending', path: at('/trending'), roles: SIGNED_IN },
  { name: 'bookmarks', path: at('/bookmarks'), roles: SIGNED_IN },
  { name: 'notifications', path: at('/notifications'), roles: SIGNED_IN },
  { name: 'not-found', path: at('/no-such-page'), roles: SIGNED_IN },
  { name: 'admin-moderation', path: at('/admin'), roles: STAFF },
  { name: 'admin-reports', path: at('/admin/reports'), roles: STAFF },
  { name: 'admin-blog', path: at('/admin/blog'), roles: STAFF },
  { name: 'admin-discussions', path: at('/admin/discussions'), roles: STAFF },
  { name: 'admin-users', path: at('/admin/users'), roles: STAFF },
  { name: 'admin-analytics', path: at('/admin/analytics'), roles: STAFF },
  { name: 'admin-settings', path: at('/admin/settings'), roles: STAFF },
  { name: 'admin-widgets', path: at('/admin/widgets'), roles: STAFF },
  { name: 'event-management', path: at('/events/manage'), roles: STAFF },
  { name: 'monitoring', path: at('/monitoring'), roles: STAFF },
  { name: 'admin-public-layout', path: at('/admin-webflow'), roles: STAFF },
  { name: 'mailbox', path: at('/mailbox'), roles: ['admin'] },
];

export const pagesFor = (role: TourRole) => TOUR.filter((page) => page.roles.includes(role));

const HOUR = 3600 * 1000;

/** One account of each role and enough of everything, written through the API as people would. */
export async function seedTour(siteUrl: string) {
  const cast = await registerCast(siteUrl);
  const { admin, staff, member } = cast;
  const posted = async (who: typeof member, content: string, tags: string[] = []) =>
    (await who.browser.post('/api/posts', { content, tags })).body.id as string;
  const approved = await posted(member, 'Found my father’s 1952 press pass from the station’s first television season.', ['television']);
  await staff.browser.put(`/api/admin/posts/${approved}/approve`);
  await posted(member, 'Does anyone remember the overnight DJ who read poetry between records?');
  const welcome = await posted(staff, 'Welcome to the community! Share a memory of the station you grew up with.', ['welcome']);
  // A conversation under it: comments, a reply, a mention, a report, and a bookmark, so those pages have content.
  const comment = (
    await member.browser.post(`/api/posts/${welcome}/comments`, {
      content: 'Thank you! I grew up with the farm report every morning at five.',
    })
  ).body.id as string;
  const reply = (
    await cast.other.browser.post(`/api/posts/${welcome}/comments`, {
      content: 'Same here, @Mona Member. My grandfather never missed it.',
      parentId: comment,
    })
  ).body.id as string;
  await member.browser.post(`/api/comments/${reply}/report`, { reason: 'Testing the queue' });
  await member.browser.put(`/api/bookmarks/post/${welcome}`);
  const blog = await staff.browser.post('/api/blog', {
    title: 'The tower that survived two winters',
    content: '<p>The crews worked through two winters to raise the tower.</p><h2>Steel</h2><p>Every beam came by rail.</p>',
    excerpt: '',
    tags: ['towers'],
    isPublished: true,
  });
  const start = Date.now() + 3 * 24 * HOUR;
  const event = (who: typeof member, title: string) =>
    who.browser.post('/api/events', {
      title,
      eventType: 'reunion',
      location: 'Tribune Tower',
      description: 'Former staff and listeners meet for an afternoon of stories.',
      startDate: new Date(start).toISOString(),
      endDate: new Date(start + 2 * HOUR).toISOString(),
    });
  await event(staff, 'Newsroom reunion');
  await event(member, 'Listeners’ picnic');
  await member.browser.put(`/api/bookmarks/blog/${blog.body.id}`);
  return { cast, blogPostId: blog.body.id as string };
}

/** A browser context at `size`, signed in as `role` through the sign-in form (a guest stays signed out). */
export async function contextAs(
  browser: Browser,
  siteUrl: string,
  seed: TourSeed,
  role: TourRole,
  size: TourSize,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, siteUrl, TOUR_SIZES[size]);
  const page = await context.newPage();
  countRequests(page);
  if (role !== 'guest') {
    const { account } = seed.cast[role];
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Toggle sidebar' }).waitFor();
  }
  return { context, page };
}

const inFlight = new WeakMap<Page, Set<Request>>();

/** Counts the page's requests under way (what `settled` waits on), from now on. */
function countRequests(page: Page) {
  const requests = new Set<Request>();
  inFlight.set(page, requests);
  page.on('request', (request) => requests.add(request));
  page.on('requestfinished', (request) => requests.delete(request));
  page.on('requestfailed', (request) => requests.delete(request));
}

/**
 * Until no request of the page has been under way for a moment (the socket's is not counted: it stays open). Playwright's
 * 'networkidle' waits half a second of silence on every page; this waits for the requests themselves.
 */
async function settled(page: Page) {
  const requests = inFlight.get(page)!;
  for (let quiet = 0; quiet < 3; ) {
    await page.waitForTimeout(20);
    quiet = requests.size === 0 ? quiet + 1 : 0;
  }
}

/** Opens a page of the tour and waits until its content has loaded: requests settled, no spinner or loading line left. */
export async function visit(page: Page, seed: TourSeed, tourPage: TourPage) {
  await page.goto(tourPage.path(seed));
  await settled(page);
  await page.waitForFunction(
    () =>
      !document.querySelector('.animate-spin') &&
      ![...document.querySelectorAll('[role="status"]')].some((status) => /^Loading/u.test(status.textContent ?? '')),
  );
  await settled(page);
}
