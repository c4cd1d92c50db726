/**
 * The blog's costs: sanitising a long article on save (beside sanitize-html's own
 * default allow-list on the same input), the public list at 10,000 posts through the
 * document store (beside hand-written SQL over the same table with an index made for it), and the RSS feed of
 * 50 posts (beside plain JSON of the same posts), all in the same run.
 */
import pg from 'pg';
import sanitizeHtml from 'sanitize-html';
import { createTestDatabase } from '../support/database';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import { blogPostDto, blogPosts, blogProjection, type BlogPostDocument } from '../../projections/blog';
import { rssFeed } from '../../server/blog/rss';
import { sanitizeBlogHtml } from '../../shared/blog/sanitize';
import { generateExcerpt } from '../../shared/blog/excerpt';
import { medianMs, printTable } from './report';

const POSTS = 10_000;
const PAGE = 50;

/** About 20 KB of the markup an article has, with some that the allow-list removes. */
function article(): string {
  const section = (n: number) =>
    `<h2 id="s${n}">Part ${n}: the tower</h2><p class="lead" style="color:red">In 19${40 + (n % 60)} the crew raised a <strong>400-foot</strong> mast on the ridge, ` +
    `<a href="https://archive.example/${n}" target="_blank" onclick="track()">as the archive shows</a>.</p>` +
    `<ul><li>Transmitter &amp; studio</li><li>Antenna <em>array</em></li></ul><blockquote>We worked through two winters.</blockquote>` +
    `<img src="https://images.example/${n}.jpg" alt="Tower ${n}" onerror="x()"><script>alert(${n})</script>`;
  return Array.from({ length: 40 }, (_, n) => section(n)).join('\n');
}

function post(i: number): BlogPostDocument {
  const createdAt = new Date(Date.UTC(2015, 0, 1) + i * 3_600_000).toISOString();
  const published = i % 5 !== 0;
  return {
    _id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    _position: i + 1,
    title: `Story ${i}`,
    slug: `story-${i}`,
    oldSlugs: [],
    publishAt: null,
    excerpt: `The story of tower number ${i}.`,
    content: `<p>The story of tower number ${i}.</p>`,
    tags: [],
    isPublished: published,
    isPinned: i % 2_500 === 0,
    isFeatured: i % 100 === 0,
    pinRank: i % 2_500 === 0 ? 1 : 0,
    createdAt,
    updatedAt: createdAt,
    publishedAt: published ? createdAt : null,
    shownAt: createdAt,
    authorId: 'staff',
    author: { name: 'Sally Editor', role: 'staff', firstName: 'Sally', lastName: 'Editor', profileImageUrl: null },
    comments: 0,
  };
}

export async function run() {
  const html = article();
  const sanitise = await medianMs(50, async () => {
    generateExcerpt(sanitizeBlogHtml(html));
  });
  const libraryDefault = await medianMs(50, async () => {
    sanitizeHtml(html);
  });

  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url });
  try {
    const store = createPostgresDocumentStore({ pool });
    await blogProjection.setup!(store);
    const posts = blogPosts(store);
    for (let i = 0; i < POSTS; i += 2_000) await posts.insertMany(Array.from({ length: 2_000 }, (_, n) => post(i + n)));
    // The baseline gets an index made for exactly its query, so it is the best plain SQL can do.
    await pool.query(
      `CREATE INDEX bench_public_list ON rm_blog_posts (((doc->>'pinRank')::int) DESC, (doc->>'shownAt') DESC, id DESC) WHERE doc->'isPublished' = 'true'::jsonb`,
    );
    await pool.query('ANALYZE');

    const list = await medianMs(30, async () =>
      (await posts.find({ isPublished: true }, { sort: { pinRank: -1, shownAt: -1, _id: -1 }, limit: PAGE })).map(blogPostDto),
    );
    const rawList = await medianMs(30, () =>
      pool.query(
        `SELECT doc FROM rm_blog_posts WHERE doc->'isPublished' = 'true'::jsonb ORDER BY (doc->>'pinRank')::int DESC, doc->>'shownAt' DESC, id DESC LIMIT ${PAGE}`,
      ),
    );

    const latest = await posts.find({ isPublished: true }, { sort: { shownAt: -1, _id: -1 }, limit: PAGE });
    const rss = await medianMs(200, async () => {
      rssFeed(latest, 'https://broadcast.example.org');
    });
    const json = await medianMs(200, async () => {
      JSON.stringify(latest.map(blogPostDto));
    });

    printTable([
      {
        figure: `sanitise + excerpt, ${Math.round(html.length / 1024)} KB article, median (closed loop)`,
        value: sanitise,
        unit: 'ms',
        baseline: "sanitize-html's default options",
        baselineValue: libraryDefault,
      },
      {
        figure: `public list, first ${PAGE} of ${POSTS.toLocaleString('en-US')} posts, median (closed loop)`,
        value: list,
        unit: 'ms',
        baseline: 'hand-written SQL, own partial index',
        baselineValue: rawList,
      },
      {
        figure: `RSS of ${PAGE} posts, median (closed loop)`,
        value: rss,
        unit: 'ms',
        baseline: 'JSON of the same posts',
        baselineValue: json,
      },
    ]);
  } finally {
    await pool.end();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
