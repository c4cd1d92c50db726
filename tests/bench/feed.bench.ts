/**
 * Feed queries at 100,000 posts: the first page (pinned first, newest first) and
 * a search, through the document store as the API runs them, beside hand-written
 * SQL over the same JSONB table in the same run.
 */
import pg from 'pg';
import { createTestDatabase } from '../support/database';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import { feedPage, feedProjection, feedPosts, type FeedPostDocument } from '../../projections/feed';
import { medianMs, printTable } from './report';

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

export async function run() {
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
      pool.query(`SELECT doc FROM rm_feed_posts WHERE doc->>'status' = 'approved' AND doc->>'search' LIKE '%transmitter%' ORDER BY (doc->>'pinRank')::int DESC, doc->>'createdAt' DESC, id DESC LIMIT 21`),
    );
    printTable([
      { figure: `feed first page, ${POSTS.toLocaleString('en-US')} posts`, value: page, unit: 'ms', baseline: 'hand-written SQL, one $or query', baselineValue: rawPage },
      { figure: 'feed search "transmitter"', value: search, unit: 'ms', baseline: 'hand-written SQL, LIKE', baselineValue: rawSearch },
    ]);
  } finally {
    await pool.end();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
