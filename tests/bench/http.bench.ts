/**
 * The site's reads over HTTP under load, as users meet them: autocannon in a separate process (50 connections,
 * 5 s each) against a site seeded through its API, each read beside a bare route of the same server
 * (`/healthz`, no cookie) measured in the same run. Figures are requests per second and their ratio to the bare
 * route; a signed-in member's reads carry their session cookie.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { startTestSite, UNLIMITED_RATES } from '../support/site';
import { Browser, registerMember } from '../support/http';
import { printTable, type Row } from './report';

const CONNECTIONS = 50;
const SECONDS = 5;
const autocannon = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** Requests per second of one path, measured by autocannon in its own process. */
async function requestsPerSecond(url: string, headers: Record<string, string> = {}): Promise<number> {
  const args = [
    autocannon,
    '--json',
    '-c',
    String(CONNECTIONS),
    '-d',
    String(SECONDS),
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}=${value}`]),
    url,
  ];
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
  const result = JSON.parse(stdout) as { requests: { average: number }; non2xx: number; '3xx': number; errors: number };
  // A revalidation (If-None-Match) is answered 304 each time; anything else, 2xx.
  const unexpected = headers['if-none-match'] ? result.non2xx - result['3xx'] + (result['3xx'] === 0 ? 1 : 0) : result.non2xx;
  if (unexpected > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} answers other than 2xx (${result['3xx']} 3xx), ${result.errors} errors`);
  return result.requests.average;
}

async function seed(admin: Browser) {
  const month = new Date();
  for (let i = 0; i < 60; i++)
    await admin.post('/api/posts', {
      content: `Memories of the ${1950 + i} season at the station, told by the crew. #radio #tv${i % 5}`,
      tags: ['radio'],
    });
  // A published post's page is at its slug (its id answers 301 to there).
  let blogId = '';
  let blogSlug = '';
  for (let i = 0; i < 30; i++) {
    const paragraphs = Array.from(
      { length: 20 },
      (_, n) => `<p>Part ${n} of the story of tower ${i}: the crew, the storm and the night shift.</p>`,
    ).join('');
    const { body } = await admin.post('/api/blog', { title: `The tower, part ${i}`, isPublished: true, content: paragraphs });
    blogId = body.id;
    blogSlug = body.slug;
  }
  for (let i = 0; i < 40; i++) {
    const start = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1 + (i % 28), 18));
    await admin.post('/api/events', {
      title: `Reunion ${i}`,
      eventType: 'reunion',
      location: 'Louisville',
      startDate: start.toISOString(),
      endDate: new Date(start.getTime() + 7_200_000).toISOString(),
    });
  }
  const from = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1)).toISOString();
  const to = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1)).toISOString();
  return { blogId, blogSlug, month: `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}` };
}

export async function run() {
  const site = await startTestSite({ ...UNLIMITED_RATES, LOG_LEVEL: 'error' });
  try {
    const admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
    const { blogId, blogSlug, month } = await seed(admin);
    const member = (await registerMember(site.url, { firstName: 'Mona', lastName: 'Member' })).browser;
    await member.get('/api/auth/user');
    const cookie = { cookie: `bhc.sid=${member.cookie('bhc.sid')}` };
    const at = (path: string) => `${site.url}${path}`;

    const bare = await requestsPerSecond(at('/healthz'));
    const reads: [string, string, Record<string, string>?][] = [
      ['bare route with a member’s cookie (/healthz)', '/healthz', cookie],
      ['guest feed (/api/posts?limit=10)', '/api/posts?limit=10'],
      ['member feed (/api/posts?limit=10, signed in)', '/api/posts?limit=10', cookie],
      ['calendar month (/api/events, signed in)', `/api/events?${month}`, cookie],
      // A browser that holds the feed asks with its ETag and is answered 304 without the body (server/http/etag.ts).
      [
        'guest feed revalidated (If-None-Match, 304)',
        '/api/posts?limit=10',
        { 'if-none-match': (await fetch(at('/api/posts?limit=10'))).headers.get('etag') ?? '' },
      ],
      ['blog list (/api/blog)', '/api/blog?limit=10'],
      ['blog post (/api/blog/{id})', `/api/blog/${blogId}`],
      ['landing page for visitors (/, HTML)', '/'],
      ['public blog post page (/blog/{slug}, HTML)', `/blog/${blogSlug}`],
      ['embed page (/embed/feed)', '/embed/feed'],
      ['RSS (/rss)', '/rss'],
      ['public calendar feed (/api/calendar.ics, 40 events)', '/api/calendar.ics'],
    ];
    const rows: Row[] = [];
    for (const [figure, path, headers] of reads)
      rows.push({
        figure,
        value: await requestsPerSecond(at(path), headers),
        unit: 'req/s',
        baseline: 'bare route (/healthz, no cookie)',
        baselineValue: bare,
      });
    console.log(`HTTP reads, ${CONNECTIONS} connections, ${SECONDS} s each (autocannon in its own process):`);
    printTable(rows);
  } finally {
    await site.close();
  }
}
