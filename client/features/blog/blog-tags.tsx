/** A post's tags, each a link to the tag's posts: the server's page for a visitor, the app's for a member. */
import { Link } from '@tanstack/react-router';

export function BlogTags({ tags, signedIn }: { tags: string[]; signedIn: boolean }) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Tags" className="mt-3 flex flex-wrap gap-2">
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            to="/blog/tag/$tag"
            params={{ tag }}
            reloadDocument={!signedIn}
            className="inline-flex min-h-11 items-center rounded-full bg-brand-50 px-3 text-sm font-medium text-brand-700 hover:bg-brand-100 dark:bg-slate-800 dark:text-amber-accent"
          >
            #{tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
