import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { topTrendingTags, TRENDING_TAGS_SHOWN, trendingWindowStart, type TagCount } from '../../../shared/feed/trending';

const DAY_MS = 24 * 3600 * 1000;
const dayOf = (offset: number) => new Date(Date.UTC(2030, 0, 1) + offset * DAY_MS).toISOString().slice(0, 10);

const codePoints = (tag: string) => Array.from(tag, (c) => c.codePointAt(0)!);
/** Most first, ties by tag in code point order, as the store sorts `{ count: -1, _id: 1 }`. */
function storeOrder(a: { tag: string; count: number }, b: { tag: string; count: number }) {
  if (b.count !== a.count) return b.count - a.count;
  const [x, y] = [codePoints(a.tag), codePoints(b.tag)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** What the feed projection keeps: per tag, its posts over the window ending on the newest post's day. */
function tagCounts(posts: { tag: string; day: string }[]): TagCount[] {
  const newest = posts
    .map((post) => post.day)
    .sort()
    .at(-1)!;
  const start = trendingWindowStart(newest);
  const byTag = new Map<string, Record<string, number>>();
  for (const { tag, day } of posts.filter((post) => post.day >= start)) {
    const days = byTag.get(tag) ?? {};
    days[day] = (days[day] ?? 0) + 1;
    byTag.set(tag, days);
  }
  return [...byTag].map(([tag, days]) => ({ tag, days, count: Object.values(days).reduce((a, b) => a + b, 0) })).sort(storeOrder);
}

/** The counts as the store hands them over, counting how many were read. */
function reading(counts: TagCount[]) {
  const read = { count: 0 };
  async function* iterate() {
    for (const count of counts) {
      read.count++;
      yield count;
    }
  }
  return { iterable: iterate(), read };
}

/** The definition: posts per tag over the days from `since`, most first, ties by tag. */
function bruteForce(posts: { tag: string; day: string }[], since: string) {
  const totals = new Map<string, number>();
  for (const { tag, day } of posts) if (day >= since) totals.set(tag, (totals.get(tag) ?? 0) + 1);
  return [...totals]
    .map(([tag, count]) => ({ tag, count }))
    .sort(storeOrder)
    .slice(0, TRENDING_TAGS_SHOWN);
}

describe('trending tags', () => {
  it('start their window 30 days before the day', () => {
    expect(trendingWindowStart('2030-03-01')).toBe('2030-01-30');
  });

  it('are the top tags of the window read today, however long ago the newest post was', async () => {
    const tags = ['radio', 'tv', 'am', 'fm', 'wgn', 'kmox', 'zz', 'z', '📻', '\uff5e'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ tag: fc.constantFrom(...tags), offset: fc.integer({ min: 0, max: 80 }) }), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 0, max: 45 }),
        async (generated, quietDays) => {
          const posts = generated.map(({ tag, offset }) => ({ tag, day: dayOf(offset) }));
          const newest = Math.max(...generated.map((post) => post.offset));
          const since = trendingWindowStart(dayOf(newest + quietDays));
          expect(await topTrendingTags(reading(tagCounts(posts)).iterable, since)).toEqual(bruteForce(posts, since));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('read one count past the ones shown when something was posted today', async () => {
    const posts = Array.from({ length: 1000 }, (_, index) => ({ tag: `tag${index % 200}`, day: dayOf(index % 31) }));
    const counts = tagCounts(posts);
    const { iterable, read } = reading(counts);
    const top = await topTrendingTags(iterable, trendingWindowStart(dayOf(30)));
    expect(top).toHaveLength(TRENDING_TAGS_SHOWN);
    expect(read.count).toBe(TRENDING_TAGS_SHOWN + 1);
  });

  it('leave out a tag whose posts are all older than the window', async () => {
    const posts = [...Array.from({ length: 9 }, () => ({ tag: 'old', day: dayOf(0) })), { tag: 'new', day: dayOf(20) }];
    expect(await topTrendingTags(reading(tagCounts(posts)).iterable, trendingWindowStart(dayOf(40)))).toEqual([{ tag: 'new', count: 1 }]);
  });
});
