import { describe, expect, it } from 'vitest';
import { WIDGETS, defaultChoice, readWidgetRequest, widgetPath, widgetSnippet, widgetUrl } from '../../client/embed/widgets';
import { startOfToday, widgetSource } from '../../client/embed/data';
import { coalesce } from '../../client/embed/live';

const read = (url: string) => {
  const parsed = new URL(url, 'https://community.example');
  return readWidgetRequest(parsed.pathname, parsed.search);
};

describe('widget addresses', () => {
  it('knows every route of the spec with its default count', () => {
    expect(read('/embed')).toMatchObject({ spec: { name: 'feed', look: 'full', header: true }, options: { limit: 5 } });
    expect(read('/embed/simple')?.spec.look).toBe('simple');
    expect(read('/embed/ultra')?.spec.look).toBe('ultra');
    expect(read('/embed/compact')).toMatchObject({ spec: { look: 'compact', header: true }, options: { limit: 3 } });
    expect(read('/embed/minimal')).toMatchObject({ spec: { look: 'compact', header: false }, options: { limit: 5 } });
    expect(read('/embed/calendar')).toMatchObject({ spec: { kind: 'events' }, options: { limit: 5, featured: null } });
    expect(read('/embed/blog')).toMatchObject({ spec: { kind: 'blog' }, options: { limit: 5, pinned: null } });
    expect(read('/embed/blog/abc%20d')).toMatchObject({ spec: { kind: 'blog-post' }, postId: 'abc d', options: { limit: null } });
    expect(read('/embed/other')).toBeNull();
    expect(read('/embed/blog/a/b')).toBeNull();
  });

  it('reads the options, keeping the count within what the API serves', () => {
    expect(read('/embed?limit=8')?.options.limit).toBe(8);
    expect(read('/embed?limit=500')?.options.limit).toBe(100);
    for (const limit of ['0', '-2', '2.5', 'many', '']) expect(read(`/embed/compact?limit=${limit}`)?.options.limit).toBe(3);
    expect(read('/embed/calendar?featured=true&compact=1')?.options).toMatchObject({ featured: true, compact: true });
    expect(read('/embed/blog?featured=false&pinned=1')?.options).toMatchObject({ featured: false, pinned: true });
    // Options a widget does not have are ignored.
    expect(read('/embed?featured=true&compact=1')?.options).toMatchObject({ featured: null, compact: false });
  });

  it('makes the background transparent with bg=transparent or transparent=1', () => {
    expect(read('/embed?bg=transparent')?.options.transparent).toBe(true);
    expect(read('/embed/blog?transparent=1')?.options.transparent).toBe(true);
    expect(read('/embed?bg=white')?.options.transparent).toBe(false);
    expect(read('/embed')?.options.transparent).toBe(false);
  });

  it('reads the API with the options, events from the start of the day', () => {
    const now = new Date(2030, 0, 5, 15, 30);
    expect(widgetSource(read('/embed/minimal')!)).toBe('/api/posts?limit=5');
    expect(widgetSource(read('/embed/blog?featured=true&pinned=false&limit=2')!)).toBe('/api/blog?limit=2&featured=true&pinned=false');
    expect(widgetSource(read('/embed/calendar?featured=1')!, now)).toBe(
      `/api/events?limit=5&featured=true&from=${encodeURIComponent(startOfToday(now))}`,
    );
    expect(new Date(startOfToday(now)).getHours()).toBe(0);
    expect(widgetSource(read('/embed/blog/x%2Fy')!)).toBe('/api/blog/x%2Fy');
  });
});

describe('snippets', () => {
  it('pastes the loader and a placeholder whose data attributes the loader turns into the preview’s address', () => {
    const origin = 'https://community.example';
    const calendar = WIDGETS.calendar;
    expect(widgetSnippet(origin, calendar, defaultChoice(calendar))).toBe(
      '<script src="https://community.example/embed.js" async></script>\n<div data-bhc-widget="calendar" data-limit="5"></div>',
    );
    const choice = { ...defaultChoice(calendar), limit: 2, featured: true, compact: true, transparent: true };
    expect(widgetSnippet(origin, calendar, choice)).toContain(
      '<div data-bhc-widget="calendar" data-limit="2" data-featured="true" data-compact="1" data-transparent="1"></div>',
    );
    expect(widgetUrl(origin, calendar, choice)).toBe(
      'https://community.example/embed/calendar?limit=2&featured=true&compact=1&transparent=1',
    );
    const single = { ...defaultChoice(WIDGETS['blog-post']), postId: 'a"b' };
    expect(widgetSnippet(origin, WIDGETS['blog-post'], single)).toContain('<div data-bhc-widget="blog-post" data-id="a&quot;b"></div>');
    expect(widgetPath('feed')).toBe('/embed');
  });
});

describe('refetching on notices', () => {
  it('never runs two loads at once and folds a burst of notices into one more load', async () => {
    let running = 0;
    let most = 0;
    let loads = 0;
    const release: (() => void)[] = [];
    const refresh = coalesce(async () => {
      loads += 1;
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((done) => release.push(done));
      running -= 1;
    });
    refresh();
    for (let i = 0; i < 10; i++) refresh();
    expect(loads).toBe(1);
    release.shift()!();
    await expect.poll(() => loads).toBe(2);
    release.shift()!();
    await new Promise((done) => setTimeout(done, 10));
    expect({ loads, most }).toEqual({ loads: 2, most: 1 });
    refresh();
    expect(loads).toBe(3);
    release.shift()!();
  });

  it('keeps going after a failed load', async () => {
    let loads = 0;
    const refresh = coalesce(async () => {
      loads += 1;
      throw new Error('offline');
    });
    refresh();
    await new Promise((done) => setTimeout(done, 0));
    refresh();
    await expect.poll(() => loads).toBe(2);
  });
});
