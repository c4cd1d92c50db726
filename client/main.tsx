/**
 * The entry, small on purpose: a visitor's landing page and sign-in pages load only their own code
 * (client/visitor.tsx); every other page, and the landing address for a signed-in member (the newsfeed), loads
 * the app (client/app.tsx). A visitor's public page (landing, blog, post, event) arrives rendered by the server with
 * its props, and only hydrates (client/public-page.tsx). Only `/` needs the session to decide otherwise; it is read
 * once here and handed to the app, as it is for the public blog post and event pages.
 */
import type { Session } from '../shared/members/schemas';
import { PUBLIC_PAGE_PROPS_ID } from '../shared/public-pages/props';
import './styles.css';

const path = window.location.pathname;
/** What a reader does first on a page that waits for them: scroll, touch, click or type. */
const INTERACTIONS = ['scroll', 'wheel', 'pointerdown', 'touchstart', 'keydown'] as const;

/** `start` once, at the reader's first move or, with `atEnd`, once the article's end is on screen. */
function whenReadOn(start: () => void, atEnd: boolean) {
  let started = false;
  const seen = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) once();
  });
  const once = () => {
    if (started) return;
    started = true;
    seen.disconnect();
    for (const type of INTERACTIONS) window.removeEventListener(type, once, true);
    start();
  };
  const end = atEnd ? document.querySelector('#prerendered article > :last-child') : null;
  if (end) seen.observe(end);
  for (const type of INTERACTIONS) window.addEventListener(type, once, { capture: true, passive: true });
}
const app = () => import('./app');

async function readSession(): Promise<Session | null> {
  try {
    const response = await fetch('/api/auth/session', { credentials: 'include' });
    return response.ok ? ((await response.json()) as Session) : null;
  } catch {
    return null;
  }
}

if (path === '/login' || path === '/register') {
  void import('./visitor').then((visitor) => visitor.showVisitorPage(path === '/login' ? 'login' : 'register'));
  void (path === '/login' ? import('./features/auth/sign-in-page') : import('./features/auth/register-page'));
} else if (document.getElementById(PUBLIC_PAGE_PROPS_ID)) {
  // A visitor's public page (the landing page, the blog, a post, an event): the server sent it rendered, with the
  // props it was rendered from; the same view hydrates it (client/public-page.tsx). Its links are plain ones, so
  // the blog's pages are whole without script: they hydrate at the reader's first move (a post also once its end,
  // where the comments follow, is on screen), and nothing competes with their first paint.
  const hydrate = () => void import('./public-page').then((page) => page.hydratePublicPage());
  if (path === '/blog' || path.startsWith('/blog/')) whenReadOn(hydrate, !path.startsWith('/blog/tag/') && path !== '/blog');
  else hydrate();
} else if (path === '/') {
  // No page from the server: it took the reader for a member. Signed out after all: the landing page.
  void readSession().then(async (session) => {
    // Signed out: the landing page. Signed in, or the session not readable (the app says so): the app.
    if (session && !session.user) (await import('./visitor')).showVisitorPage('landing');
    else (await app()).startApp(session ?? undefined);
  });
} else if (/^\/(blog|events)\/[^/]+$/u.test(path)) {
  // A member's public page: the session is read while the app loads, so the app draws the page at once, without a
  // first pass that only waits for the session.
  void Promise.all([app(), readSession()]).then(([loaded, session]) => loaded.startApp(session ?? undefined));
} else void app().then((loaded) => loaded.startApp());
