/** The newsfeed's "N new posts" pill: which posts wait behind it and which show. */
import { describe, expect, it } from 'vitest';
import { splitNewPosts } from '../../../client/features/newsfeed/new-posts';

const posts = (...ids: string[]) => ids.map((id) => ({ id }));
const split = (list: { id: string }[], seen: string[]) => {
  const { fresh, shown } = splitNewPosts(list, new Set(seen));
  return { fresh: fresh.map((post) => post.id), shown: shown.map((post) => post.id) };
};

describe('new posts', () => {
  it('are the unseen posts listed before the last seen one: the new arrivals at the top, also below pinned posts', () => {
    expect(split(posts('n2', 'n1', 'a', 'b', 'c'), ['a', 'b', 'c'])).toEqual({ fresh: ['n2', 'n1'], shown: ['a', 'b', 'c'] });
    expect(split(posts('pinned', 'n1', 'a', 'b'), ['pinned', 'a', 'b'])).toEqual({ fresh: ['n1'], shown: ['pinned', 'a', 'b'] });
  });

  it('leave out older posts after the last seen one (the next page loaded while scrolled down): they show', () => {
    expect(split(posts('n1', 'a', 'b', 'older1', 'older2'), ['a', 'b'])).toEqual({ fresh: ['n1'], shown: ['a', 'b', 'older1', 'older2'] });
  });

  it('are none when every post is seen, or none of the seen ones is listed any more', () => {
    expect(split(posts('a', 'b'), ['a', 'b'])).toEqual({ fresh: [], shown: ['a', 'b'] });
    expect(split(posts('x', 'y'), ['gone'])).toEqual({ fresh: [], shown: ['x', 'y'] });
  });
});
