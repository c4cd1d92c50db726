/**
 * The entry, small on purpose: a visitor's landing page and sign-in pages load only their own code
 * (client/visitor.tsx); every other page, and the landing address for a signed-in member (the newsfeed), loads
 * the app (client/app.tsx). Only `/` needs the session to decide; it is read once here and handed to the app, as it is
 * for the public blog post and event pages.
 */
import type { Session } from '../shared/members/schemas';
import './styles.css';

const path = window.location.pathname;
/** What a reader does first on a page that waits for them: scroll, touch, click or type. */
const INTERACTIONS = ['scroll', 'wheel', 'pointerdown', 'touchstart', 'keydown'] as const;
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
} else if (path === '/') {
  // The server's HTML already shows a visitor the landing page; a member is not sent the visitor's code.
  void readSession().then(async (session) => {
    // Signed out: the landing page. Signed in, or the session not readable (the app says so): the app.
    if (session && !session.user) (await import('./visitor')).showVisitorPage('landing');
    else (await app()).startApp(session ?? undefined);
  });
} else if (document.body.hasAttribute('data-prerendered') && /^\/blog(\/tag\/[^/]+)?\/?$/u.test(path)) {
  // A visitor's page of the blog (the server sends its HTML to visitors only): complete as it is, its links plain ones.
} else if (document.body.hasAttribute('data-prerendered') && /^\/blog\/[^/]+$/u.test(path)) {
  // A visitor reading a post: the server's page is the whole article, so the app (its comments, sharing) waits for
  // the reader's first move, or for the article's end (where the comments follow) to be on screen, and nothing
  // competes with the article's first paint.
  let started = false;
  const end = document.querySelector('#prerendered article > :last-child');
  const seen = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) start();
  });
  const start = () => {
    if (started) return;
    started = true;
    seen.disconnect();
    for (const type of INTERACTIONS) window.removeEventListener(type, start, true);
    void Promise.all([app(), readSession()]).then(([loaded, session]) => loaded.startApp(session ?? undefined));
  };
  if (end) seen.observe(end);
  for (const type of INTERACTIONS) window.addEventListener(type, start, { capture: true, passive: true });
} else if (/^\/(blog|events)\/[^/]+$/u.test(path)) {
  // A public page (the server's HTML shows it already): the session is read while the app loads, so the app draws
  // the page for a visitor or a member at once, without a first pass that only waits for the session.
  void Promise.all([app(), readSession()]).then(([loaded, session]) => loaded.startApp(session ?? undefined));
} else void app().then((loaded) => loaded.startApp());
