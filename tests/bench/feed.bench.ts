/**
 * Feed queries at 100,000 posts: the first page (pinned first, newest first) and
 * a search, through the document store as the API runs them, beside hand-written
 * SQL over the same JSONB table in the same run.
 *
 * Likes over HTTP on a whole site: 25 members liking and unliking across 30 posts at once, each member sending its
 * next command when the last answered (a throughput, closed loop), every answer checked to show its own write
 * (read-your-writes: likedByMe as just set), beside the same 25 clients on a bare route carrying their session
 * cookie (`/healthz`: the session and the signed-in member resolved as for any route, no read model read).
 * Rounds alternate the two and the figures are medians.
 */
import pg from 'pg';
import { createTestDatabase } from '../support/database';
import { startTestSite, UNLIMITED_RATES } from '../support/site';
import { registerMember, type Browser } from '../support/http';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import { feedPage, feedProjection, feedPosts, type FeedPostDocument } from '../../projections/feed';
import { medianMs, printTable, rate } from './report';

const POSTS = 100_000;
const WORDS = ['radio', 'television', 'tower', 'anchor', 'studio', 'signal', 'broadcast', 'archive', 'memory', 'reunion'];

function post(i: number): FeedPostDocument {
  const content = `${WORDS[i % 10]} ${WORDS[(i * 7) % 10]} story number ${i}${i % 1000 === 0 ? ' transmitter' : ''}`;
  return {
    _id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    _position: i + 1,
    authorId: `author-${i % 500}`,
    author: { id: `author-${i % 500}`, name: `Member ${i % 500}`, avatar: null, role: i % 10 === 0 ? 'staff' : 'member' },
    content,
    mediaType: null,
    mediaUrl: null,
    mediaTitle: null,
    tags: [WORDS[i % 10]!],
    status: i % 20 === 0 ? 'pending' : 'approved',
    rejectionReason: null,
    pinRank: i % 25_000 === 0 ? 1 : 0,
    likedBy: [],
    likes: i % 40,
    comments: 0,
    shares: 0,
    reportedBy: [],
    reports: 0,
    createdAt: new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString(),
    search: `${content}\nmember ${i % 500}\n${WORDS[i % 10]}`,
  };
}

const LIKERS = 25;
const LIKED_POSTS = 30;
const ROUNDS = 3;
const LIKES_EACH = 40;
const BARE_EACH = 200;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function likes() {
  // Registration hashes a password: 25 at once queue past the default bound (PASSWORD_HASH_QUEUE) and would be refused.
  const site = await startTestSite({ ...UNLIMITED_RATES, PASSWORD_HASH_QUEUE: '1000', LOG_LEVEL: 'error' });
  try {
    const admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
    const members: Browser[] = await Promise.all(Array.from({ length: LIKERS }, async () => (await registerMember(site.url)).browser));
    // The admin's posts are approved at once.
    const posts: string[] = [];
    for (let i = 0; i < LIKED_POSTS; i++) {
      const { status, body } = await admin.post('/api/posts', { content: `The night the tower came down, part ${i}` });
      if (status !== 201) throw new Error(`A post to like was answered ${status}: ${JSON.stringify(body)}`);
      posts.push(body.id as string);
    }

    /** What each member has liked: its next command on a post is the other one, so rounds can go on without end. */
    const liked = members.map(() => new Set<string>());
    const steps = members.map(() => 0);
    const check = { commands: 0, notShown: 0, failed: [] as string[] };
    const likeRound = async (each: number) => {
      await Promise.all(
        members.map(async (member, m) => {
          for (let k = 0; k < each; k++) {
            // Each member walks all the posts in its own order (7 is prime to 30), meeting the others on the same posts.
            const post = posts[(m + 7 * steps[m]!++) % LIKED_POSTS]!;
            const like = !liked[m]!.has(post);
            const { status, body } = like ? await member.put(`/api/posts/${post}/like`) : await member.delete(`/api/posts/${post}/like`);
            check.commands += 1;
            if (status !== 200) {
              check.failed.push(`${status} ${JSON.stringify(body)}`);
              continue;
            }
            if (like) liked[m]!.add(post);
            else liked[m]!.delete(post);
            if (body.likedByMe !== like) check.notShown += 1;
          }
        }),
      );
    };
    const bareRound = async (each: number) => {
      await Promise.all(
        members.map(async (member) => {
          for (let k = 0; k < each; k++) {
            const { status } = await member.get('/healthz');
            if (status !== 200) throw new Error(`/healthz answered ${status}`);
          }
        }),
      );
    };
    // Warm-up, not counted.
    await likeRound(4);
    await bareRound(20);
    const figures = { likes: [] as number[], bare: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      figures.likes.push(await rate(LIKERS * LIKES_EACH, () => likeRound(LIKES_EACH)));
      figures.bare.push(await rate(LIKERS * BARE_EACH, () => bareRound(BARE_EACH)));
    }
    console.log(`\nLikes over HTTP, ${LIKERS} members across ${LIKED_POSTS} posts, ${ROUNDS} alternated rounds (medians):`);
    printTable([
      {
        figure: `likes and unlikes, ${LIKERS} members across ${LIKED_POSTS} posts, each answer with its own write`,
        value: median(figures.likes),
        unit: 'commands/s',
        baseline: `the same ${LIKERS} clients on a bare route with their session cookie (/healthz)`,
        baselineValue: median(figures.bare),
      },
    ]);
    console.log(
      `rounds: likes ${figures.likes.map(Math.round).join(', ')} commands/s; bare ${figures.bare.map(Math.round).join(', ')} req/s`,
    );
    console.log(
      `${check.commands} commands (warm-up included): ${check.notShown} answers without their own write, ${check.failed.length} failed${check.failed.length ? ` (first: ${check.failed[0]})` : ''}`,
    );
  } finally {
    await site.close();
  }
}

export async function run() {
  await queries();
  await likes();
}

async function queries() {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url });
  try {
    const store = createPostgresDocumentStore({ pool });
    await feedProjection.setup!(store);
    const posts = feedPosts(store);
    for (let i = 0; i < POSTS; i += 5000) await posts.insertMany(Array.from({ length: 5000 }, (_, n) => post(i + n)));
    await pool.query('ANALYZE');
    const viewer = { id: 'author-1', role: 'member' as const };

    const page = await medianMs(30, () => feedPage(store, { filter: 'all' }, viewer, 20));
    const rawPage = await medianMs(30, () =>
      pool.query(
        `SELECT doc FROM rm_feed_posts WHERE doc->>'status' = 'approved' OR (doc->>'status' = 'pending' AND doc->>'authorId' = $1)
         ORDER BY (doc->>'pinRank')::int DESC, doc->>'createdAt' DESC, id DESC LIMIT 21`,
        [viewer.id],
      ),
    );
    const search = await medianMs(10, () => feedPage(store, { filter: 'all', q: 'transmitter' }, viewer, 20));
    const rawSearch = await medianMs(10, () =>
      pool.query(
        `SELECT doc FROM rm_feed_posts WHERE doc->>'status' = 'approved' AND doc->>'search' LIKE '%transmitter%' ORDER BY (doc->>'pinRank')::int DESC, doc->>'createdAt' DESC, id DESC LIMIT 21`,
      ),
    );
    printTable([
      {
        figure: `feed first page, ${POSTS.toLocaleString('en-US')} posts, median (closed loop)`,
        value: page,
        unit: 'ms',
        baseline: 'hand-written SQL, one $or query',
        baselineValue: rawPage,
      },
      {
        figure: 'feed search "transmitter", median (closed loop)',
        value: search,
        unit: 'ms',
        baseline: 'hand-written SQL, LIKE',
        baselineValue: rawSearch,
      },
    ]);
  } finally {
    await pool.end();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
