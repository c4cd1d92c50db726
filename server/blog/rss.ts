/** RSS 2.0 of published blog posts, with absolute links and every text escaped. */
import type { BlogPostDocument } from '../../projections/blog';

const escapeXml = (text: string) =>
  text
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '');

/** What an item prints: a post's whole content is never read for the feed. */
export const RSS_FIELDS = ['title', 'slug', 'shownAt', 'author', 'excerpt', 'tags'] as const;
export type RssPost = Pick<BlogPostDocument, '_id' | (typeof RSS_FIELDS)[number]>;

/** `tag`: the feed of that tag's posts, named and linked as its page. */
export function rssFeed(posts: RssPost[], siteUrl: string, tag?: string): string {
  const title = `Broadcast History Community Blog${tag ? `: ${tag}` : ''}`;
  const page = `${siteUrl}/blog${tag ? `/tag/${encodeURIComponent(tag)}` : ''}`;
  const self = `${siteUrl}/rss${tag ? `?tag=${encodeURIComponent(tag)}` : ''}`;
  const items = posts
    .map((post) => {
      const link = `${siteUrl}/blog/${post.slug}`;
      // The guid stays the id's address (which leads to the post): a renamed slug must not make readers show it again.
      const guid = `${siteUrl}/blog/${post._id}`;
      return `    <item>
      <title>${escapeXml(post.title)}</title>
      <link>${escapeXml(link)}</link>
      <guid isPermaLink="true">${escapeXml(guid)}</guid>
      <pubDate>${new Date(post.shownAt).toUTCString()}</pubDate>
      <dc:creator>${escapeXml(post.author.name)}</dc:creator>
      <description>${escapeXml(post.excerpt)}</description>
${post.tags.map((tag) => `      <category>${escapeXml(tag)}</category>`).join('\n')}
    </item>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${escapeXml(title)}</title>
    <link>${escapeXml(page)}</link>
    <atom:link href="${escapeXml(self)}" rel="self" type="application/rss+xml"/>
    <description>Stories from the history of broadcasting in our state.</description>
    <language>en-us</language>
${posts[0] ? `    <lastBuildDate>${new Date(posts[0].shownAt).toUTCString()}</lastBuildDate>\n` : ''}${items}
  </channel>
</rss>
`;
}
