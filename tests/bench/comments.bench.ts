/**
 * A comment storm: 500 members commenting at once on one post, through HTTP on a whole site (each answer waits
 * for the read models, so the projections' work on the post's count and the thread is in the figure), checked to
 * end with all 500 in the thread and the post counting 500 (never more); beside the same 500 members liking one
 * post at once (every like serialised on the post's one stream). Figures: answers per second, writes per second
 * until the post counted them all (where answers come before the count, the catch-up is in it), and the catch-up.
 */
import { startTestSite, UNLIMITED_RATES } from '../support/site';
import { registerMember, type Browser } from '../support/http';
import { printTable, rate } from './report';

const MEMBERS = 500;

export async function run() {
  // Registration hashes a password: 50 at once queue past the default bound (PASSWORD_HASH_QUEUE) and would be refused.
  const site = await startTestSite({ ...UNLIMITED_RATES, PASSWORD_HASH_QUEUE: '1000', LOG_LEVEL: 'error' });
  try {
    const admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
    const members: Browser[] = [];
    for (let i = 0; i < MEMBERS; i += 50)
      members.push(...(await Promise.all(Array.from({ length: 50 }, () => registerMember(site.url).then((m) => m.browser)))));
    const commented = (await admin.post('/api/posts', { content: 'Where were you when the station signed off for good?' })).body
      .id as string;
    const liked = (await admin.post('/api/posts', { content: 'The last broadcast from the old studio' })).body.id as string;

    const expectOk = ({ status, body }: { status: number; body: unknown }) => {
      if (status >= 300) throw new Error(`A request of the storm failed with ${status}: ${JSON.stringify(body)}`);
    };
    /** Until the post counts all the storm's `MEMBERS` writes: how long after the storm's last answer, in ms. */
    const settled = async (count: () => Promise<number>) => {
      const started = performance.now();
      for (let seen = await count(); seen !== MEMBERS; seen = await count()) {
        if (seen > MEMBERS) throw new Error(`The post counts ${seen} for the ${MEMBERS} written`);
        if (performance.now() - started > 120_000)
          throw new Error(`The read models did not catch up with the storm within 2 minutes (${seen} of ${MEMBERS} counted)`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return performance.now() - started;
    };
    const counted = async (id: string) =>
      (await admin.get('/api/posts?limit=10')).body.items.find((p: { id: string }) => p.id === id) as { comments: number; likes: number };

    const comments = await rate(MEMBERS, async () => {
      await Promise.all(
        members.map(async (member, i) =>
          expectOk(await member.post(`/api/posts/${commented}/comments`, { content: `I was listening in the car, number ${i}` })),
        ),
      );
    });
    const commentsSettled = await settled(async () => (await counted(commented)).comments);
    const likes = await rate(MEMBERS, async () => {
      await Promise.all(members.map(async (member) => expectOk(await member.put(`/api/posts/${liked}/like`))));
    });
    const likesSettled = await settled(async () => (await counted(liked)).likes);
    /** Writes per second from the storm's start until the post counted them all (the last answer, then the catch-up). */
    const counting = (answered: number, after: number) => MEMBERS / (MEMBERS / answered + after / 1000);

    let seen = 0;
    let cursor: string | null = null;
    do {
      const page: { items: unknown[]; nextCursor: string | null } = (
        await admin.get(`/api/posts/${commented}/comments?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      ).body;
      seen += page.items.length;
      cursor = page.nextCursor;
    } while (cursor);
    if (seen !== MEMBERS) throw new Error(`The storm ended with ${seen} comments in the thread, not ${MEMBERS}`);

    printTable([
      {
        figure: `comments, ${MEMBERS} members on one post at once (HTTP)`,
        value: comments,
        unit: 'commands/s',
        baseline: `likes, ${MEMBERS} members on one post at once`,
        baselineValue: likes,
      },
      {
        figure: `comments counted on the post, from the storm's start`,
        value: counting(comments, commentsSettled),
        unit: 'writes/s',
        baseline: 'likes counted',
        baselineValue: counting(likes, likesSettled),
      },
      {
        figure: 'read models caught up after the comment storm (open loop: all sent at once)',
        value: commentsSettled,
        unit: 'ms',
        baseline: 'after the like storm',
        baselineValue: likesSettled,
      },
    ]);
  } finally {
    await site.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
