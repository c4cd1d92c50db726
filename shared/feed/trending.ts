/**
 * Trending tags: the tags of the most feed posts over the last TRENDING_WINDOW_DAYS days (UTC days, as posts are
 * dated), most first, ties by tag.
 *
 * The feed projection keeps one count per tag over the window that ends on the newest post's day, recounting the
 * tags of the days that leave it whenever a post moves that day forward, so no count outlives its days. Read today,
 * such a count is exact when something was posted today, and otherwise an upper bound (its window may reach back
 * before today's): each count keeps its days, so the reader recounts from `since` and, reading in descending order of
 * stored count, stops as soon as no count still unread can reach the ones it has.
 */

const TRENDING_WINDOW_DAYS = 30;
export const TRENDING_TAGS_SHOWN = 5;

const DAY_MS = 24 * 3600 * 1000;

/** The first day (YYYY-MM-DD) of the trending window that ends on `day`. */
export const trendingWindowStart = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - TRENDING_WINDOW_DAYS * DAY_MS).toISOString().slice(0, 10);

/** One tag's posts per day over the window ending on the newest post's day, and their sum. */
export interface TagCount {
  tag: string;
  days: Readonly<Record<string, number>>;
  count: number;
}

export interface TrendingTag {
  tag: string;
  count: number;
}

/** Tags in the order the store sorts them: by code point, as PostgreSQL's "C" collation and MongoDB do (not UTF-16 units). */
function byCodePoint(a: string, b: string): number {
  // Equal code points take equal widths, so one index serves both strings.
  for (let i = 0; i < a.length && i < b.length; ) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}
const before = (a: TrendingTag, b: TrendingTag) => b.count - a.count || byCodePoint(a.tag, b.tag);

/**
 * The trending tags of the window starting on `since`, from tag counts given in descending order of `count`, then
 * ascending tag. Reads only as far as it must: the first `TRENDING_TAGS_SHOWN` and one more when every count is
 * current.
 */
export async function topTrendingTags(byCount: AsyncIterable<TagCount>, since: string): Promise<TrendingTag[]> {
  const top: TrendingTag[] = [];
  for await (const { tag, days, count: bound } of byCount) {
    const last = top[TRENDING_TAGS_SHOWN - 1];
    // Later counts are at most this bound, and a tie goes to the tag that comes first: none of them can enter.
    if (last && before(last, { tag, count: bound }) < 0) break;
    const count = Object.entries(days).reduce((sum, [day, posts]) => (day >= since ? sum + posts : sum), 0);
    if (count === 0) continue;
    top.push({ tag, count });
    top.sort(before);
    top.splice(TRENDING_TAGS_SHOWN);
  }
  return top;
}
