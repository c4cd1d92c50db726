/**
 * A comment storm: 500 members commenting at once on one post, through HTTP on a whole site (each answer waits
 * for the read models, so the projections' work on the post's count and the thread is in the figure), checked to
 * end with all 500 in the thread and the post counting 500; beside the same 500 members liking one post at once
 * (every like serialised on the post's one stream).
 */
import { startTestSite, UNLIMITED_RATES } from '../support/site';
import { registerMember, type Browser } from '../support/http';
import { printTable, rate } from './report';

const MEMBERS = 500;

export async function run() {
  const site = await startTestSite({ ...UNLIMITED_RATES, LOG_LEVEL: 'error' });
  try {
    const admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
    const members: Browser[] = [];
    for (let i = 0; i < MEMBERS; i += 50) members.push(...(await Promise.all(Array.from({ length: 50 }, () => registerMember(site.url).then((m) => m.browser)))));
    const commented = (await admin.post('/api/posts', { content: 'Where were you when the station signed off for good?' })).body.id as string;
    const liked = (await admin.post('/api/posts', { content: 'The last broadcast from the old studio' })).body.id as string;

    const expectOk = (status: number) => {
      if (status >= 300) throw new Error(`A request of the storm failed with ${status}`);
    };
    const comments = await rate(MEMBERS, async () => {
      await Promise.all(members.map(async (member, i) => expectOk((await member.post(`/api/posts/${commented}/comments`, { content: `I was listening in the car, number ${i}` })).status)));
    });
    const likes = await rate(MEMBERS, async () => {
      await Promise.all(members.map(async (member) => expectOk((await member.put(`/api/posts/${liked}/like`)).status)));
    });

    const thread = (await admin.get(`/api/posts/${commented}/comments?limit=100`)).body;
    let seen = thread.items.length;
    for (let cursor = thread.nextCursor; cursor; ) {
      const page = (await admin.get(`/api/posts/${commented}/comments?limit=100&cursor=${encodeURIComponent(cursor)}`)).body;
      seen += page.items.length;
      cursor = page.nextCursor;
    }
    const posts = (await admin.get('/api/posts?limit=10')).body.items as { id: string; comments: number; likes: number }[];
    if (seen !== MEMBERS || posts.find((p) => p.id === commented)?.comments !== MEMBERS || posts.find((p) => p.id === liked)?.likes !== MEMBERS)
      throw new Error(`The storm did not end with ${MEMBERS} comments in the thread and counted, and ${MEMBERS} likes`);

    printTable([{ figure: `comments, ${MEMBERS} members on one post at once (HTTP, read-your-writes)`, value: comments, unit: 'commands/s', baseline: `likes, ${MEMBERS} members on one post at once`, baselineValue: likes }]);
  } finally {
    await site.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
