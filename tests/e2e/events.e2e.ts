/** Events end to end in real browsers: create, bulk approve live, RSVP states, full events, export, subscribers. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestSite, type TestSite } from '../support/site';
import { Browser as Http, registerMember } from '../support/http';
import { accessibilityViolations, launchChromium, openAs, person, screenshot } from '../support/browser';

let site: TestSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
let staff: Page;
let member: Page;
const future = (days: number) => {
  const d = new Date(Date.now() + days * 24 * 3600 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T18:00`;
};

async function open(account: ReturnType<typeof person>, path = '/calendar') {
  const { context, page } = await openAs(browser, site.url, account, path);
  contexts.push(context);
  return page;
}

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000' });
  browser = await launchChromium();
  staff = await open(person('Stella', 'Staff'), '/events/manage');
  member = await open(person('Morris', 'Member'));
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await site?.close();
});

describe('events', () => {
  it('lets a member propose an event that staff approve in bulk, appearing live on the member’s calendar', async () => {
    await member.getByRole('button', { name: 'List' }).click();
    for (const title of ['Engineers reunion', 'Memorial for Ray']) {
      await member.getByRole('button', { name: 'New Event' }).click();
      const dialog = member.getByRole('dialog');
      await dialog.getByText('Create New Event').waitFor();
      await dialog.getByRole('button', { name: 'Create Event' }).click();
      await dialog.getByText('Event title is required').waitFor();
      await dialog.getByLabel('Title', { exact: true }).fill(title);
      await dialog.getByLabel('Start', { exact: true }).fill(future(7));
      expect(await dialog.getByLabel('End', { exact: true }).inputValue()).toMatch(/T19:00$/);
      await dialog.getByLabel('Max attendees').fill('1');
      await dialog.getByRole('button', { name: 'Create Event' }).click();
      await member.getByText('Your event has been created successfully.').waitFor();
    }
    const card = member.getByRole('article', { name: 'Engineers reunion' });
    await card.getByText('Pending Approval').waitFor();

    const queued = staff.getByRole('listitem', { name: 'Engineers reunion' });
    await queued.waitFor();
    await screenshot(staff, 'events-management');
    expect(await accessibilityViolations(staff)).toEqual([]);
    await staff.getByRole('button', { name: 'Approve All' }).click();
    await staff.getByText('No events selected').waitFor();
    await staff.getByLabel('Select all').check();
    await staff.getByRole('button', { name: 'Approve All' }).click();
    await staff.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await staff.getByText('No events found').waitFor();

    await expect.poll(() => card.getByText('Pending Approval').count()).toBe(0);
    await screenshot(member, 'events-calendar-list');
  });

  it('takes RSVPs in every state, and shows a full event', async () => {
    await member.getByRole('article', { name: 'Engineers reunion' }).getByRole('button', { name: 'Engineers reunion' }).click();
    const dialog = member.getByRole('dialog');
    const rsvp = dialog.getByRole('region', { name: 'RSVP' });
    await rsvp.getByRole('button', { name: 'Maybe' }).click();
    await member.getByText('RSVP updated successfully').waitFor();
    await rsvp.getByText('0 attending of 1 · 1 maybe').waitFor();
    await rsvp.getByRole('button', { name: 'Attending', exact: true }).click();
    await rsvp.getByText('1 attending of 1 · 0 maybe').waitFor();
    await rsvp.getByRole('button', { name: 'Not attending' }).click();
    await rsvp.getByText('0 attending of 1 · 0 maybe · 1 not attending').waitFor();
    await rsvp.getByRole('button', { name: 'Remove RSVP' }).click();
    await member.getByText('RSVP removed successfully').waitFor();

    const [eventId] = (await site.services.store.collection('event_calendar').find({ title: 'Engineers reunion' })).map((e) => e._id);
    const someone = (await registerMember(site.url)).browser;
    expect((await someone.put(`/api/events/${eventId}/rsvp/me`, { status: 'attending' })).status).toBe(200);
    await rsvp.getByText('This event is full.').waitFor();
    expect(await rsvp.getByRole('button', { name: 'Attending', exact: true }).isDisabled()).toBe(true);
    await screenshot(member, 'events-detail-full');

    const download = member.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download to calendar (.ics)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^Engineers_reunion_\d{4}-\d{2}-\d{2}\.ics$/);
    const text = readFileSync((await file.path())!, 'utf8');
    expect(new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!).summary).toBe('Engineers reunion');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('tells a subscriber to upgrade and offers no New Event button', async () => {
    const subscriberAccount = person('Sid', 'Subscriber');
    const page = await open(subscriberAccount);
    const admin = new Http(site.url);
    const adminId = (await site.services.store.collection('members').findOne({ role: 'admin' }))!._id;
    const adminEmail = (await site.services.store.collection('member_credentials').findOne({ _id: adminId }))!.email;
    await admin.post('/api/auth/login', { email: adminEmail, password: 'correct horse battery' });
    const subscriber = (await site.services.store.collection('member_credentials').findOne({ email: subscriberAccount.email }))!;
    expect((await admin.put(`/api/admin/users/${subscriber._id}/role`, { role: 'subscriber' })).status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'Events & Calendar' }).waitFor();
    expect(await page.getByRole('button', { name: 'New Event' }).count()).toBe(0);
    await page.getByRole('button', { name: 'List' }).click();
    await page.getByRole('article', { name: 'Memorial for Ray' }).getByRole('button', { name: 'Memorial for Ray' }).click();
    await page.getByText('Upgrade your membership to RSVP to community events.').waitFor();
  });
});
