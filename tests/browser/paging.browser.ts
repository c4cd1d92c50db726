/**
 * Lists longer than one page, in a real browser: the calendar's month grid reads
 * every page of a crowded month, its list view and the dashboard's member list
 * grow by "Load more", and a pushed change still refreshes a list of several pages.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { streamName } from '../../shared/streams';
import { calendarEventDecider } from '../../shared/events/event-stream';
import { EventSchema } from '../../shared/events/schemas';
import type { TestSite } from '../support/site';
import { registerMember } from '../support/http';
import { siteInBrowser, openAs, person, screenshot } from '../support/browser';

/** More than the 100 a page holds. */
const CROWDED = 105;

let site: TestSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
let admin: Page;
let adminId: string;

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  const opened = await openAs(browser, site.url, person('Ada', 'Admin'));
  contexts.push(opened.context);
  admin = opened.page;
  adminId = (await admin.evaluate(() => fetch('/api/auth/user').then((response) => response.json() as Promise<{ id: string }>))).id;
});

describe('paged lists', () => {
  it('shows every event of a month with more than a page of them, and the list view loads more', async () => {
    const now = new Date();
    const day = new Date(now.getFullYear(), now.getMonth(), 15, 12);
    for (let i = 0; i < CROWDED; i++) {
      const id = randomUUID();
      const start = new Date(day.getTime() + i * 60_000);
      const fields = v.parse(EventSchema, {
        title: `Reunion ${String(i).padStart(3, '0')}`,
        eventType: 'reunion',
        startDate: start.toISOString(),
        endDate: new Date(start.getTime() + 30 * 60_000).toISOString(),
      });
      await site.services.handle(calendarEventDecider, streamName('event', id), {
        type: 'ScheduleEvent',
        data: { id, fields },
        metadata: { now, actor: { id: adminId, role: 'admin' } },
      });
    }

    await admin.goto('/calendar');
    const cell = admin.getByRole('gridcell', { name: day.toDateString() });
    // Two shown in the cell, the rest counted: all 105 arrived, not only the first page.
    await cell.getByText(`+${CROWDED - 2} more`).waitFor();

    await admin.getByRole('button', { name: 'List' }).click();
    const cards = admin.getByRole('article');
    await expect.poll(() => cards.count()).toBe(100);
    await admin.getByRole('button', { name: 'Load more events' }).click();
    await expect.poll(() => cards.count()).toBe(CROWDED);
    expect(await admin.getByRole('button', { name: 'Load more events' }).count()).toBe(0);
    expect(await cards.last().getByRole('button').textContent()).toBe(`Reunion ${CROWDED - 1}`);
  });

  it('loads the member list a page at a time, and a new member appears in it by push', async () => {
    for (let batch = 0; batch < 11; batch++) await Promise.all(Array.from({ length: 5 }, () => registerMember(site.url)));
    await admin.goto('/admin/users');
    const rows = admin.getByRole('row').filter({ has: admin.getByRole('cell') });
    await expect.poll(() => rows.count()).toBe(50);
    await admin.getByRole('button', { name: 'Load more members' }).click();
    // 55 registered here and the admin.
    await expect.poll(() => rows.count()).toBe(56);
    expect(await admin.getByRole('button', { name: 'Load more members' }).count()).toBe(0);
    expect(await rows.last().textContent()).toContain('Ada Admin');
    await screenshot(admin, 'paging-members');

    await registerMember(site.url, { firstName: 'Newest', lastName: 'Member' });
    await expect.poll(() => rows.first().textContent()).toContain('Newest Member');
    await expect.poll(() => rows.count()).toBe(57);
  });
});
