/**
 * The core flow against a booted image (npm run test:image, which boots it: scripts/test-image.sh): the site's
 * pages are served from the built client with the theme script inline, the first account becomes the admin, its
 * post is published at once and the feed shows it, to a visitor too. Exits non-zero with the step that failed.
 *
 * Registration finishes by the mailed link: the image runs its development mailbox (SMTP_SINK_IN_PRODUCTION), which
 * keeps what it catches in Redis under the site's REDIS_PREFIX, where this reads the link.
 *
 *   tsx scripts/test-image.ts http://127.0.0.1:<port> <the site's REDIS_PREFIX>
 */
import { Redis } from 'ioredis';
import { Browser } from '../tests/support/http';

const [baseUrl, redisPrefix] = process.argv.slice(2);
if (!baseUrl || !redisPrefix) {
  console.error('usage: tsx scripts/test-image.ts <base url of the booted image> <its REDIS_PREFIX>');
  process.exit(2);
}

/** The link that finishes `email`'s registration, from the mail the image's development mailbox caught. */
async function registrationLink(email: string): Promise<string> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      for (const json of await redis.lrange(`${redisPrefix}:mailbox`, 0, -1)) {
        const mail = JSON.parse(json) as { to?: string[]; text?: string };
        const link = mail.text?.match(/https?:\/\/[^\s"'<>]+\/api\/auth\/register\/confirm\/[\w-]+/u)?.[0];
        if (link && mail.to?.some((to) => to.toLowerCase().includes(email))) return link;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`no mail with a registration link reached ${email} within 30 s`);
  } finally {
    redis.disconnect();
  }
}

function check(condition: unknown, failure: string): asserts condition {
  if (!condition) throw new Error(failure);
}

async function main(url: string) {
  const visitor = new Browser(url);

  const ready = await visitor.get('/readyz');
  check(ready.status === 200, `GET /readyz answered ${ready.status}: ${JSON.stringify(ready.body)}`);

  const page = await fetch(new URL('/', url));
  const html = await page.text();
  check(page.status === 200 && html.includes('<div id="root"'), `GET / answered ${page.status} without the app's page`);
  const theme = await fetch(new URL('/theme.js', url));
  const themeScript = await theme.text();
  check(theme.status === 200 && themeScript.length > 0, `GET /theme.js answered ${theme.status}`);
  check(html.includes(`<script>${themeScript}</script>`), 'the first page does not carry the theme script inline');
  console.log('test:image: the built client is served, the theme script inline');

  const admin = new Browser(url);
  const account = {
    email: `image-test-${Date.now()}@example.org`,
    password: 'correct horse battery staple',
    firstName: 'Ada',
    lastName: 'Admin',
  };
  const registered = await admin.post('/api/auth/register', account);
  check(registered.status === 202, `registering the first account answered ${registered.status}: ${JSON.stringify(registered.body)}`);
  const link = new URL(await registrationLink(account.email));
  const finished = await admin.post(link.pathname);
  check(finished.status === 303, `following the registration link answered ${finished.status}`);
  const me = await admin.get('/api/auth/user');
  check(
    me.status === 200 && me.body.email === account.email,
    `GET /api/auth/user after registering answered ${me.status}: ${JSON.stringify(me.body)}`,
  );
  check(me.body.role === 'admin', `the first account is ${me.body.role}, not admin`);
  console.log('test:image: the first account is the admin, signed in');

  const content = `The image boots: a post from the test at ${new Date().toISOString()}`;
  const posted = await admin.post('/api/posts', { content, tags: ['image-test'] });
  check(posted.status === 201, `posting answered ${posted.status}: ${JSON.stringify(posted.body)}`);
  check(posted.body.isApproved === true, "the admin's post is not published at once");

  for (const [who, browser] of [
    ['the admin', admin],
    ['a visitor', visitor],
  ] as const) {
    const feed = await browser.get('/api/posts');
    check(feed.status === 200, `GET /api/posts for ${who} answered ${feed.status}`);
    const found = (feed.body.items as { id: string; content: string }[]).find((post) => post.id === posted.body.id);
    check(found?.content === content, `the feed ${who} sees lacks the new post`);
  }
  console.log('test:image: the post is in the feed, for the admin and for a visitor');
}

main(baseUrl).catch((error: unknown) => {
  console.error(`test:image: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
