/** The blog list (/blog) and a single post (/blog/{id}). */
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { Badge, RoleBadge } from '../../components/ui/badge';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { PagedListView } from '../../components/paged-list-view';
import { useBlogPost, usePublishedPosts, type BlogPost } from './api';
import { BlogTags } from './blog-tags';
import { excerptRepeatsBody } from '../../../shared/blog/excerpt';
import { SharePost as Share } from './share-post';
import { usePrerenderedHandoff } from '../../lib/prerendered';
import { useCurrentUser } from '../../lib/current-user';
import { CommentThread } from '../../components/comment-thread';
import { BookmarkButton } from '../../components/bookmark-button';
import { MemberLink } from '../../components/member-link';

const date = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

function Badges({ post }: { post: BlogPost }) {
  if (!post.isPinned && !post.isFeatured) return null;
  return (
    <div className="flex gap-2">
      {post.isPinned && <Badge variant="default">Pinned</Badge>}
      {post.isFeatured && <Badge variant="secondary">Featured</Badge>}
    </div>
  );
}

/**
 * The post's cover (its upload), at its width and height so the page keeps its place while it loads. A card takes
 * the feed's 800-wide file (the same picture, the same proportions); the post's page the blog's own 1600.
 */
function Cover({ post, size }: { post: BlogPost; size: 'card' | 'page' }) {
  const media = post.media;
  if (!media) return null;
  if (media.kind === 'audio')
    return size === 'page' ? (
      <audio src={media.url} controls preload="metadata" aria-label="Recording shown with the post" className="mt-6 w-full" />
    ) : null;
  const src = size === 'card' ? media.url.replace(/\/blog\.webp$/u, '/feed.webp') : media.url;
  return (
    <img
      src={src}
      width={media.width}
      height={media.height}
      alt=""
      loading={size === 'card' ? 'lazy' : undefined}
      className={
        size === 'card' ? 'mb-3 h-auto w-full rounded-lg object-cover' : 'mt-6 h-auto max-h-[32rem] w-full rounded-xl object-cover'
      }
    />
  );
}

function PostCard({ post, signedIn }: { post: BlogPost; signedIn: boolean }) {
  return (
    <article
      aria-label={post.title}
      className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <Cover post={post} size="card" />
      <Badges post={post} />
      <h3 className="mt-2 text-xl font-semibold">{post.title}</h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        <MemberLink id={post.author.id} name={post.author.name} /> ·{' '}
        <time dateTime={post.publishedAt ?? post.createdAt}>{date(post.publishedAt ?? post.createdAt)}</time>
        {post.comments > 0 && <> · {post.comments === 1 ? '1 comment' : `${post.comments} comments`}</>}
      </p>
      <p className="mt-3 flex-1 text-slate-700 dark:text-slate-300">{post.excerpt}</p>
      <BlogTags tags={post.tags} signedIn={signedIn} />
      <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
        <Link
          to="/blog/$id"
          params={{ id: post.slug }}
          className="inline-flex min-h-11 items-center font-medium text-brand-600 underline dark:text-amber-accent"
        >
          Read full post<span className="sr-only">: {post.title}</span>
        </Link>
        {signedIn && <BookmarkButton kind="blog" id={post.id} label={post.title} />}
      </div>
    </article>
  );
}

/** One group of the blog's list (pinned, featured, latest) under its heading; none when the group is empty. */
function PostSection({
  id,
  title,
  posts,
  signedIn,
  grid = false,
}: {
  id: string;
  title: string;
  posts: BlogPost[];
  signedIn: boolean;
  grid?: boolean;
}) {
  if (posts.length === 0) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      <div className={grid ? 'grid gap-4 md:grid-cols-2' : 'space-y-4'}>
        {posts.map((post) => (
          <PostCard key={post.id} post={post} signedIn={signedIn} />
        ))}
      </div>
    </section>
  );
}

/** A tag's posts, newest first (/blog/tag/{tag}); a visitor reads the server's page of it. */
export function BlogTagPage() {
  const { tag } = useParams({ strict: false }) as { tag: string };
  return <BlogPage tag={tag} />;
}

export function BlogPage({ tag }: { tag?: string } = {}) {
  const { list: posts, items: loaded } = usePublishedPosts(tag);
  const signedIn = Boolean(useCurrentUser().data);
  const [search, setSearch] = useState('');
  // The search looks through the posts loaded so far; "Load more" brings older ones in.
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return loaded.filter((post) => !q || post.title.toLowerCase().includes(q) || post.excerpt.toLowerCase().includes(q));
  }, [loaded, search]);
  const pinned = shown.filter((post) => post.isPinned);
  const featured = shown.filter((post) => post.isFeatured && !post.isPinned);
  const latest = shown.filter((post) => !post.isPinned && !post.isFeatured);

  return (
    <div>
      {tag === undefined ? (
        <PageHeader title="Blog" description="Stories, research and memories from the community." />
      ) : (
        <PageHeader title={`Posts tagged “${tag}”`} description="Every published post with this tag, newest first." />
      )}
      <label htmlFor="blog-search" className="sr-only">
        Search blog posts
      </label>
      <input
        id="blog-search"
        type="search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        placeholder="Search blog posts..."
        className="mb-6 min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 dark:border-slate-600 dark:bg-slate-900"
      />
      <PagedListView
        list={posts}
        loading="Loading blog posts"
        failed="The blog could not be loaded. Please refresh the page."
        isEmpty={shown.length === 0}
        empty={
          <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
            {loaded.length > 0
              ? `No blog posts match “${search.trim()}”`
              : tag === undefined
                ? 'No blog posts yet'
                : 'No posts with this tag'}
          </p>
        }
        loadMoreLabel="Load more posts"
      >
        <div className="space-y-8">
          <PostSection id="pinned-posts" title="Pinned Posts" posts={pinned} signedIn={signedIn} />
          <PostSection id="featured-posts" title="Featured Posts" posts={featured} signedIn={signedIn} grid />
          <PostSection id="latest-posts" title="Latest Posts" posts={latest} signedIn={signedIn} />
        </div>
      </PagedListView>
    </div>
  );
}

export function BlogPostPage() {
  const { id } = useParams({ strict: false }) as { id: string };
  const post = useBlogPost(id);
  const viewer = useCurrentUser();
  const navigate = useNavigate();
  usePrerenderedHandoff(!post.isPending);
  // Reached by its id or an earlier slug (a link from within the app): the address bar shows its own.
  const slug = post.data?.slug;
  useEffect(() => {
    if (slug && slug !== id) void navigate({ to: '/blog/$id', params: { id: slug }, replace: true });
  }, [slug, id, navigate]);
  useEffect(() => {
    if (post.data) document.title = `${post.data.title} | Broadcast History Community`;
    return () => {
      document.title = 'Broadcast History Community';
    };
  }, [post.data]);

  if (post.isPending) return <Spinner label="Loading the post" />;
  if (post.isError) return <p role="alert">The post could not be loaded. Please refresh the page.</p>;
  if (!post.data)
    return (
      <div className="py-16 text-center">
        <h1 className="text-2xl font-bold">Post not found</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">This blog post does not exist or was removed.</p>
        <Link to="/blog" className="mt-6 inline-flex min-h-11 items-center font-medium text-brand-600 underline dark:text-amber-accent">
          Back to Blog
        </Link>
      </div>
    );
  const p = post.data;
  return (
    <article className="mx-auto max-w-3xl">
      <Badges post={p} />
      <h1 className="mt-2 text-3xl font-bold md:text-4xl">{p.title}</h1>
      <p className="mt-3 flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
        <MemberLink
          id={p.author.id}
          name={`${p.author.firstName} ${p.author.lastName}`.trim() || p.author.name}
          className="font-medium text-slate-900 dark:text-slate-100"
        />
        <RoleBadge role={p.author.role} />
        {p.publishedAt && (
          <span>
            Published <time dateTime={p.publishedAt}>{date(p.publishedAt)}</time>
          </span>
        )}
        {p.updatedAt !== p.createdAt && (
          <span>
            · Updated <time dateTime={p.updatedAt}>{date(p.updatedAt)}</time>
          </span>
        )}
      </p>
      <BlogTags tags={p.tags} signedIn={Boolean(viewer.data)} />
      <Cover post={p} size="page" />
      {p.excerpt && !excerptRepeatsBody(p.excerpt, p.content) && (
        <blockquote className="mt-6 border-l-4 border-amber-accent pl-4 text-lg text-slate-700 italic dark:text-slate-300">
          {p.excerpt}
        </blockquote>
      )}
      {/* Sanitised on the server when saved, with an allow-list of tags and attributes. */}
      <div className="blog-content mt-6 space-y-4 leading-relaxed" dangerouslySetInnerHTML={{ __html: p.content }} />
      <div className="mt-8 flex flex-wrap items-center justify-between gap-4 border-t border-slate-200 pt-6 dark:border-slate-800">
        <div className="flex flex-wrap items-center gap-2">
          <Share post={p} />
          {viewer.data && p.isPublished && (
            <BookmarkButton kind="blog" id={p.id} label={p.title} className="border border-slate-300 dark:border-slate-600" />
          )}
        </div>
        <Link
          to="/blog"
          reloadDocument={!viewer.data}
          className="inline-flex min-h-11 items-center font-medium text-brand-600 underline dark:text-amber-accent"
        >
          Browse More Posts
        </Link>
      </div>
      {p.isPublished && (
        <section aria-labelledby="comments-heading" className="mt-8">
          <h2 id="comments-heading" className="text-xl font-semibold">
            Comments · {p.comments}
          </h2>
          <CommentThread targetType="blog" targetId={p.id} viewer={viewer.data ?? null} />
        </section>
      )}
    </article>
  );
}
