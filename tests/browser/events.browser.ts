/**
 * Events end to end in real browsers, each member in a context of their own:
 * proposing, approving one by one and in bulk with everyone's page following by
 * push, RSVP in every state, the full event, export, editing, deleting,
 * featuring, statistics, and what subscribers and members may not do.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { Browser as Http, registerMember } from '../support/http';
import { accessibilityViolations, siteInBrowser, openAs, person, registerInBrowser, screenshot } from '../support/browser';

let site: TestSite;
let browser: Browser;
let admin: Http;
const contexts: BrowserContext[] = [];
let staff: Page;
let member: Page;
let neighbour: Page;
const pad = (n: number) => String(n).padStart(2, '0');
/** The form's local date-time value, `days` from today at 18:00. */
const future = (days: number) => {
  const d = new Date(Date.now() + days * 24 * 3600 * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T18:00`;
};
const eventId = async (title: string) => (await site.services.store.collection('event_calendar').findOne({ title }))!._id;

async function open(account: ReturnType<typeof person>, path = '/calendar') {
  const { context, page } = await openAs(browser, site.url, account, path);
  contexts.push(context);
  return page;
}

async function propose(page: Page, title: string, options: { maxAttendees?: string; days?: number } = {}) {
  await page.getByRole('button', { name: 'New Event' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Title', { exact: true }).fill(title);
  await dialog.getByLabel('Start', { exact: true }).fill(future(options.days ?? 7));
  if (options.maxAttendees) await dialog.getByLabel('Max attendees').fill(options.maxAttendees);
  await dialog.getByRole('button', { name: 'Create Event' }).click();
  await page.getByText('Your event has been created successfully.').last().waitFor();
  await dialog.waitFor({ state: 'detached' });
}

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_EVENT_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  const staffAccount = person('Stella', 'Staff');
  staff = await open(staffAccount, '/events/manage');
  const staffId = (await site.services.store.collection('member_credentials').findOne({ email: staffAccount.email }))!._id;
  expect((await admin.put(`/api/admin/users/${staffId}/role`, { role: 'staff' })).status).toBe(200);
  await staff.reload();
  member = await open(person('Morris', 'Member'));
  neighbour = await open(person('Nora', 'Neighbour'));
});

describe('events', () => {
  it('validates the form with the shared schema and fills the end an hour after the start', async () => {
    await member.getByRole('button', { name: 'New Event' }).click();
    const dialog = member.getByRole('dialog');
    await dialog.getByText('Create New Event').waitFor();
    for (const section of ['Basic Information', 'Date & Time', 'Location', 'Event Settings'])
      await dialog.getByRole('group', { name: section }).waitFor();
    expect(await dialog.getByText('Admin Settings').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Create Event' }).click();
    await dialog.getByText('Event title is required').waitFor();
    await dialog.getByText('Start date is required').waitFor();
    await dialog.getByLabel('Start', { exact: true }).fill(future(3));
    // A fixed field loses its error at once; the others keep theirs until fixed.
    await dialog.getByText('Start date is required').waitFor({ state: 'detached' });
    await dialog.getByText('Event title is required').waitFor();
    expect(await dialog.getByLabel('End', { exact: true }).inputValue()).toMatch(/T19:00$/);
    await dialog.getByLabel('End', { exact: true }).fill(future(2));
    await dialog.getByLabel('Title', { exact: true }).fill('Backwards');
    await dialog.getByRole('button', { name: 'Create Event' }).click();
    await dialog.getByText('End date must be after start date').waitFor();
    expect(await dialog.getByText('Event title is required').count()).toBe(0);
    await dialog.getByLabel('End', { exact: true }).fill(future(4));
    await dialog.getByText('End date must be after start date').waitFor({ state: 'detached' });
    // All day on and off again keeps both dates, with a time of day again.
    await dialog.getByLabel('All day').check();
    expect(await dialog.getByLabel('Start', { exact: true }).getAttribute('type')).toBe('date');
    expect(await dialog.getByLabel('Start', { exact: true }).inputValue()).toBe(future(3).slice(0, 10));
    await dialog.getByLabel('All day').uncheck();
    expect(await dialog.getByLabel('Start', { exact: true }).inputValue()).toBe(`${future(3).slice(0, 10)}T09:00`);
    expect(await dialog.getByLabel('End', { exact: true }).inputValue()).toBe(`${future(4).slice(0, 10)}T17:00`);
    await dialog.getByLabel('All day').check();
    await dialog.getByLabel('Virtual event').check();
    await dialog.getByLabel('Meeting link').waitFor();
    expect(await dialog.getByLabel('Venue / location').count()).toBe(0);
    await dialog.getByLabel('Add a tag').fill('  radio ');
    await dialog.getByLabel('Add a tag').press('Enter');
    await dialog.getByLabel('Add a tag').fill('radio');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    expect(await dialog.getByRole('button', { name: /^Remove tag/ }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Remove tag radio' }).click();
    expect(await dialog.getByRole('button', { name: /^Remove tag/ }).count()).toBe(0);
    await screenshot(member, 'events-form');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('queues members’ events; staff approve one and then the rest in bulk; every open page follows by push', async () => {
    await member.getByRole('button', { name: 'List' }).click();
    for (const title of ['Engineers reunion', 'Memorial for Ray', 'Tower tour'])
      await propose(member, title, { maxAttendees: title === 'Engineers reunion' ? '1' : undefined });
    const cards = member.getByRole('article');
    await member.getByRole('button', { name: 'Next month' }).click();
    await member.getByRole('button', { name: 'Today' }).click();
    await member.getByLabel('Search events').fill('e');
    await expect.poll(() => cards.filter({ hasText: 'Pending Approval' }).count()).toBe(3);
    await member.getByLabel('Search events').fill('');
    expect(await neighbour.getByText('Engineers reunion').count()).toBe(0);

    // The staff page was open all along: the queue and the sidebar badge filled by push.
    const queue = staff.getByRole('listitem', { name: 'Tower tour' });
    await queue.waitFor();
    await staff.getByRole('navigation').getByLabel('3 pending').waitFor();
    await staff.getByText('Pending 3').waitFor();
    await screenshot(staff, 'events-management');
    expect(await accessibilityViolations(staff)).toEqual([]);

    await queue.getByRole('button', { name: 'Approve' }).click();
    await staff.getByText('Event approved successfully').first().waitFor();
    await staff.getByRole('navigation').getByLabel('2 pending').waitFor();
    await expect.poll(() => member.getByRole('article', { name: 'Tower tour' }).getByText('Pending Approval').count()).toBe(0);
    await neighbour.reload();
    await neighbour.getByRole('button', { name: 'List' }).click();
    await neighbour.getByRole('article', { name: 'Tower tour' }).waitFor();

    await staff.getByRole('button', { name: 'Approve All' }).click();
    await staff.getByText('No events selected').waitFor();
    await staff.getByLabel('Select all').check();
    await staff.getByRole('button', { name: 'Approve All' }).click();
    await staff.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await staff.getByText('No events found').waitFor();
    // An empty queue's tab carries no count: a red 0 reads as an alert.
    await expect.poll(() => staff.getByRole('tab', { name: /Pending Events/ }).textContent()).toBe('Pending Events');
    await staff
      .getByRole('navigation')
      .getByLabel(/pending/)
      .waitFor({ state: 'detached' });

    await expect.poll(() => cards.filter({ hasText: 'Pending Approval' }).count()).toBe(0);
    await neighbour.getByRole('article', { name: 'Memorial for Ray' }).waitFor();
    await screenshot(member, 'events-calendar-list');
  });

  it('rejects in bulk after a warning, and features from the card’s menu', async () => {
    await propose(member, 'Doubtful gathering');
    const queued = staff.getByRole('listitem', { name: 'Doubtful gathering' });
    await queued.getByRole('checkbox').check();
    await staff.getByRole('button', { name: 'Reject All' }).click();
    await staff.getByRole('alertdialog').getByText('This cannot be undone.').waitFor();
    await staff.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await staff.getByText('Event rejected successfully').waitFor();
    await expect.poll(() => member.getByRole('article', { name: 'Doubtful gathering' }).count()).toBe(0);

    await staff.getByRole('tab', { name: 'All Events' }).click();
    const memorial = staff.getByRole('listitem', { name: 'Memorial for Ray' });
    await memorial.getByRole('button', { name: 'More actions for Memorial for Ray' }).click();
    await staff.getByRole('menuitem', { name: 'Feature' }).click();
    await staff.getByText('Event featured status updated').waitFor();
    await member.getByRole('region', { name: 'Featured Events' }).getByRole('button', { name: 'Memorial for Ray' }).waitFor();
    await member.getByRole('article', { name: 'Memorial for Ray' }).getByText('Featured').waitFor();
    await staff.getByRole('tab', { name: 'Featured Events' }).click();
    await staff.getByRole('listitem', { name: 'Memorial for Ray' }).waitFor();
    await staff.getByRole('tab', { name: 'Statistics' }).click();
    const stats = staff.getByRole('region', { name: 'Statistics' });
    await stats.getByText('Pending Approval').waitFor();
    await stats.getByRole('progressbar', { name: 'Approved share' }).waitFor();
    expect(await stats.getByRole('progressbar', { name: 'Approved share' }).getAttribute('aria-valuenow')).toBe('75');
    await screenshot(staff, 'events-statistics');
  });

  it('takes RSVPs in every state, shows the counts live to others, and queues for a full event', async () => {
    await member.getByRole('article', { name: 'Engineers reunion' }).getByRole('button', { name: 'Engineers reunion' }).click();
    const dialog = member.getByRole('dialog');
    const rsvp = dialog.getByRole('region', { name: 'RSVP' });
    await neighbour.getByRole('article', { name: 'Engineers reunion' }).getByRole('button', { name: 'Engineers reunion' }).click();
    const watching = neighbour.getByRole('dialog').getByRole('region', { name: 'RSVP' });

    await rsvp.getByRole('button', { name: 'Maybe' }).click();
    await member.getByText('RSVP updated successfully').waitFor();
    await rsvp.getByText('0 attending of 1 · 1 maybe').waitFor();
    await watching.getByText('0 attending of 1 · 1 maybe').waitFor();
    await rsvp.getByRole('button', { name: 'Attending', exact: true }).click();
    await rsvp.getByText('1 attending of 1 · 0 maybe').waitFor();
    // Full: the neighbour may queue for the place, and sees where they stand.
    await watching.getByText('This event is full. Join the waiting list to get the next free place.').waitFor();
    await screenshot(neighbour, 'events-detail-full');
    await watching.getByRole('button', { name: 'Join waiting list' }).click();
    await watching.getByText('You are #1 on the waiting list. If a place frees, it is yours at once and we e-mail you.').waitFor();
    await rsvp.getByText('1 attending of 1 · 0 maybe · 0 not attending · 1 waiting').waitFor();
    await screenshot(neighbour, 'events-detail-waitlisted');
    // The organizer sees the line.
    await rsvp.getByText('Waiting list', { exact: true }).click();
    await rsvp.getByRole('list', { name: 'Waiting list' }).getByText('Nora Neighbour').waitFor();
    // The member gives up the place: the neighbour has it at once, on their open page.
    await rsvp.getByRole('button', { name: 'Not attending' }).click();
    await rsvp.getByText('1 attending of 1 · 0 maybe · 1 not attending').waitFor();
    await expect.poll(() => watching.getByRole('button', { name: 'Attending', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await rsvp.getByRole('button', { name: 'Remove RSVP' }).click();
    await member.getByText('RSVP removed successfully').waitFor();
    await rsvp.getByText('1 attending of 1 · 0 maybe · 0 not attending').waitFor();

    // Someone else joins the line while the dialog is open.
    const someone = (await registerMember(site.url)).browser;
    expect((await someone.put(`/api/events/${await eventId('Engineers reunion')}/rsvp/me`, { status: 'attending' })).body).toMatchObject({
      status: 'waitlisted',
      position: 1,
    });
    await rsvp.getByText('1 attending of 1 · 0 maybe · 0 not attending · 1 waiting').waitFor();
    await rsvp.getByRole('button', { name: 'Join waiting list' }).waitFor();
    await neighbour.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    const download = member.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download to calendar (.ics)' }).click();
    const file = await download;
    await member.getByText('Event has been downloaded as .ics file').waitFor();
    expect(file.suggestedFilename()).toMatch(/^Engineers_reunion_\d{4}-\d{2}-\d{2}\.ics$/);
    const text = readFileSync((await file.path())!, 'utf8');
    const vevent = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!);
    expect(vevent.summary).toBe('Engineers reunion');
    expect(vevent.description).toContain('Organizer: Morris Member');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('lets the organizer edit, not other members; staff see admin information and delete after a warning', async () => {
    await neighbour.getByRole('article', { name: 'Tower tour' }).getByRole('button', { name: 'Tower tour' }).click();
    expect(await neighbour.getByRole('dialog').getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await neighbour.getByRole('dialog').getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await neighbour.getByRole('dialog').getByRole('region', { name: 'Admin information' }).count()).toBe(0);
    await neighbour.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    await member.getByRole('article', { name: 'Tower tour' }).getByRole('button', { name: 'Tower tour' }).click();
    const dialog = member.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Edit' }).click();
    await dialog.getByText('Make changes to your event. All changes will be saved automatically.').waitFor();
    expect(await dialog.getByLabel('Title', { exact: true }).inputValue()).toBe('Tower tour');
    await dialog.getByLabel('Title', { exact: true }).fill('Transmitter tower tour');
    await dialog.getByRole('button', { name: 'Update Event' }).click();
    // A member's edit of an approved event waits for staff: everyone keeps the approved event meanwhile.
    await member.getByText('Your changes will show once staff approve them. Until then everyone sees the event as it was.').waitFor();
    await dialog.getByRole('heading', { name: 'Tower tour' }).waitFor();
    await dialog.getByRole('note').getByText('Transmitter tower tour').waitFor();
    await neighbour.getByRole('article', { name: 'Tower tour' }).waitFor();
    expect(await neighbour.getByRole('article', { name: 'Transmitter tower tour' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Staff approve the edit alone from the moderation queue; then feature it from the form's Admin Settings.
    await staff.goto('/events/manage');
    await staff.getByRole('button', { name: 'Approve the edit of Tower tour' }).click();
    await neighbour.getByRole('article', { name: 'Transmitter tower tour' }).waitFor();
    await staff.goto('/calendar');
    await staff.getByRole('button', { name: 'List' }).click();
    await staff.getByRole('article', { name: 'Transmitter tower tour' }).getByRole('button', { name: 'Transmitter tower tour' }).click();
    const staffDialog = staff.getByRole('dialog');
    await staffDialog.getByRole('button', { name: 'Edit' }).click();
    const settings = staffDialog.getByRole('group', { name: 'Admin Settings' });
    expect(await settings.getByLabel(/^Approved/u).isChecked()).toBe(true);
    await settings.getByLabel(/^Featured/u).check();
    expect(await settings.getByLabel(/^Waiting list/u).isChecked()).toBe(true);
    await staffDialog.getByRole('button', { name: 'Update Event' }).click();
    await staff.getByText('Your event has been updated successfully.').waitFor();
    await neighbour.getByRole('article', { name: 'Transmitter tower tour' }).getByText('Featured', { exact: true }).waitFor();
    const info = staffDialog.getByRole('region', { name: 'Admin information' });
    await info.getByText(/^Creator: morris-.*@example\.org$/).waitFor();
    await info.getByText(`Event id: ${(await eventId('Transmitter tower tour')).slice(0, 8)}`).waitFor();
    await screenshot(staff, 'events-detail-staff');
    await staffDialog.getByRole('button', { name: 'Delete' }).click();
    await staffDialog
      .getByRole('alertdialog')
      .getByText(/RSVPs and related data are deleted too/)
      .waitFor();
    await staffDialog.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await staff.getByText('The event has been deleted successfully.').waitFor();
    await expect.poll(() => member.getByRole('article', { name: 'Transmitter tower tour' }).count()).toBe(0);
    await expect.poll(() => neighbour.getByRole('article', { name: 'Transmitter tower tour' }).count()).toBe(0);
  });

  it('shows the month grid with two events a day and “+N more”, live', async () => {
    await neighbour.getByRole('button', { name: 'Calendar' }).click();
    const today = new Date();
    const at = (hour: number) => new Date(today.getFullYear(), today.getMonth(), today.getDate(), hour, 0).toISOString();
    const cell = neighbour.getByRole('gridcell', { name: today.toDateString() });
    for (const [i, title] of ['Morning news history', 'Noon show', 'Evening sign-off'].entries())
      expect((await admin.post('/api/events', { title, startDate: at(8 + i), endDate: at(9 + i) })).status).toBe(201);
    await cell.getByRole('button', { name: 'Morning news history' }).waitFor();
    await cell.getByRole('button', { name: 'Noon show' }).waitFor();
    await cell.getByText('+1 more').waitFor();
    expect(await cell.getByRole('button', { name: 'Evening sign-off' }).count()).toBe(0);
    const grid = neighbour.getByRole('grid');
    expect(await grid.getByRole('columnheader').allTextContents()).toEqual(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);
    await neighbour.getByLabel('Search events').fill('noon');
    await expect.poll(() => cell.getByRole('button').count()).toBe(1);
    await neighbour.getByLabel('Search events').fill('no such thing');
    // A search with no match says so, not that there are no events.
    await neighbour.getByText('No events match “no such thing”').waitFor();
    await neighbour.getByLabel('Search events').fill('');
    await cell.getByText('+1 more').waitFor();
    await screenshot(neighbour, 'events-calendar-month');
    expect(await accessibilityViolations(neighbour)).toEqual([]);
    const label = (d: Date) => d.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
    await neighbour.getByRole('button', { name: 'Next month' }).click();
    await neighbour.getByRole('heading', { name: label(new Date(today.getFullYear(), today.getMonth() + 1, 1)) }).waitFor();
    await neighbour.getByRole('button', { name: 'Today' }).click();
    await neighbour.getByRole('heading', { name: label(today) }).waitFor();
    // "+1 more" opens the day's full list, whose events open as anywhere else, and the list comes back after.
    await cell.getByRole('button', { name: /^\+1 more/u }).click();
    const day = neighbour.getByRole('dialog', {
      name: today.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }),
    });
    await expect
      .poll(() => day.getByRole('listitem').getByRole('button').allTextContents())
      .toEqual(['Morning news history', 'Noon show', 'Evening sign-off']);
    await screenshot(neighbour, 'events-day-list');
    await day.getByRole('button', { name: 'Evening sign-off' }).click();
    const details = neighbour.getByRole('dialog', { name: 'Evening sign-off' });
    await details.getByRole('button', { name: 'Close' }).click();
    await day.getByRole('button', { name: 'Close' }).click();
    await day.waitFor({ state: 'detached' });
  });

  it('keeps an all-day event on its calendar date in every time zone, as the .ics file does', async () => {
    for (const timezoneId of ['Pacific/Auckland', 'America/Los_Angeles']) {
      const context = await browser.newContext({ baseURL: site.url, timezoneId });
      contexts.push(context);
      const page = await context.newPage();
      await registerInBrowser(page, person('Zoe', 'Zone'));
      await page.goto('/calendar');
      const title = `Archive day ${timezoneId}`;
      await page.getByRole('button', { name: 'New Event' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Title', { exact: true }).fill(title);
      await dialog.getByLabel('All day').check();
      await dialog.getByLabel('Start', { exact: true }).fill('2030-05-04');
      await dialog.getByLabel('End', { exact: true }).fill('2030-05-04');
      await dialog.getByRole('button', { name: 'Create Event' }).click();
      await dialog.waitFor({ state: 'detached' });
      const stored = (await site.services.store.collection('event_calendar').findOne({ title }))!;
      expect([stored.startDate, stored.endDate]).toEqual(['2030-05-04T00:00:00.000Z', '2030-05-04T00:00:00.000Z']);
      await page.getByRole('button', { name: 'List' }).click();
      await page.getByLabel('Search events').fill(title);
      await page.getByRole('article', { name: title }).getByRole('button', { name: title }).click();
      await page.getByRole('dialog').getByText('Saturday, May 4, 2030 · All day').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Edit' }).click();
      expect(await page.getByRole('dialog').getByLabel('Start', { exact: true }).inputValue()).toBe('2030-05-04');
    }
  });

  it('gives a member a private calendar link of their events, which a new link replaces', async () => {
    await neighbour.goto(`${site.url}/calendar`);
    const panel = neighbour.getByRole('region', { name: 'Subscribe in your calendar app' });
    const link = panel.getByRole('textbox', { name: 'Your private calendar link' });
    await expect.poll(() => link.inputValue()).toMatch(/\/api\/calendar\/[\w-]{43}\.ics$/u);
    const url = await link.inputValue();
    expect(await panel.getByRole('link', { name: 'Open in calendar app' }).getAttribute('href')).toBe(url.replace(/^http:/u, 'webcal:'));
    // The neighbour attends the Engineers reunion (promoted from the waiting list above).
    const summaries = async (address: string) =>
      new ICAL.Component(ICAL.parse(await (await fetch(address)).text()))
        .getAllSubcomponents('vevent')
        .map((vevent) => vevent.getFirstPropertyValue('summary'));
    expect(await summaries(url)).toEqual(['Engineers reunion']);
    await screenshot(neighbour, 'events-personal-calendar');

    await panel.getByRole('button', { name: 'Make a new link' }).click();
    await panel.getByText('The current link stops working at once, in every app that uses it.').waitFor();
    await panel.getByRole('button', { name: 'Make a new link' }).click();
    await neighbour.getByText('New calendar link made').waitFor();
    await expect.poll(() => link.inputValue()).not.toBe(url);
    expect((await fetch(url)).status).toBe(404);
    expect(await summaries(await link.inputValue())).toEqual(['Engineers reunion']);
  });

  it('lets the organizer cancel an event: it stays listed as cancelled for everyone, live, and takes no RSVPs', async () => {
    await member.goto(`${site.url}/calendar`);
    await member.getByRole('button', { name: 'List' }).click();
    await neighbour.getByRole('button', { name: 'List' }).click();
    await member.getByRole('article', { name: 'Engineers reunion' }).getByRole('button', { name: 'Engineers reunion' }).click();
    const dialog = member.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cancel event' }).click();
    await dialog.getByRole('alertdialog', { name: 'Confirm cancellation' }).getByRole('button', { name: 'Cancel event' }).click();
    await member.getByText('It stays on the calendar as cancelled and takes no more RSVPs.').waitFor();
    await dialog.getByText('This event was cancelled. It takes no more RSVPs.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await neighbour.getByRole('article', { name: 'Engineers reunion' }).getByText('Cancelled', { exact: true }).waitFor();
    await screenshot(member, 'events-detail-cancelled');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('tells a subscriber to upgrade and offers no New Event button; keeps members out of management', async () => {
    const subscriberAccount = person('Sid', 'Subscriber');
    const page = await open(subscriberAccount);
    const subscriber = (await site.services.store.collection('member_credentials').findOne({ email: subscriberAccount.email }))!;
    expect((await admin.put(`/api/admin/users/${subscriber._id}/role`, { role: 'subscriber' })).status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'Events & Calendar' }).waitFor();
    expect(await page.getByRole('button', { name: 'New Event' }).count()).toBe(0);
    await page.getByRole('button', { name: 'List' }).click();
    await page.getByRole('article', { name: 'Memorial for Ray' }).getByRole('button', { name: 'Memorial for Ray' }).click();
    await page.getByText('Upgrade your membership to RSVP to community events.').waitFor();
    expect(await page.getByRole('dialog').getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await screenshot(page, 'events-subscriber');

    // The route exists only for admin and staff (spec 2 route table): members find nothing there.
    await member.goto('/events/manage');
    await member.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await member.getByRole('tab', { name: /Pending Events/ }).count()).toBe(0);
  });
});
