/**
 * What an organiser runs, in a real browser (docs/domain/events.md#organisers): on their event's page they open who
 * is coming (by keyboard too), download it as CSV, message the attendees and meet the daily limit, and copy a private
 * event's invite link, which lets another member in; staff cancel an approved event from Event Management, where
 * Reject is offered only for events waiting for approval. Screenshots at 1366 and 390 px.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { Browser as Http, registerMember } from '../support/http';
import { formatEventTime } from '../../shared/events/event-times';
import { accessibilityViolations, siteInBrowser, openAs, person, registerInBrowser, screenshot } from '../support/browser';

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
let site: TestSite;
let browser: Browser;
let admin: Http;
let context: BrowserContext;
let organiser: Page;

const inDays = (days: number, hour = 18) =>
  new Date(Date.now() + days * 86_400_000).toISOString().replace(/T\d\d:\d\d/u, `T${String(hour).padStart(2, '0')}:00`);
/** An event of the organiser's, approved by the admin. */
async function organisersEvent(fields: Record<string, unknown>) {
  const created = await organiser.request.post('/api/events', {
    data: { location: 'Studio B', startDate: inDays(9), endDate: inDays(9, 21), ...fields },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  expect((await admin.put(`/api/admin/events/${id}/approve`)).status).toBe(200);
  return id;
}
const messageEntries = async (eventId: string) =>
  (await site.services.store.collection('mail_outbox').find({ 'cause.mail': 'message', 'cause.eventId': eventId })).length;

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_EVENT_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  ({ context, page: organiser } = await openAs(browser, site.url, person('Olive', 'Organiser'), '/calendar'));
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await organiser.setViewportSize(DESKTOP);
});

describe('an organiser', () => {
  it('sees who is coming, downloads it as CSV and messages the attendees, up to the daily limit', async () => {
    const id = await organisersEvent({ title: 'Night shift reunion', maxAttendees: 2, description: 'Forty years of the overnight crew.' });
    const guests = [
      await registerMember(site.url, { firstName: 'Walter', lastName: 'Cronkite' }),
      await registerMember(site.url, { firstName: '=SUM(A1)', lastName: 'Prankster' }),
      await registerMember(site.url, { firstName: 'Grace', lastName: 'Waiting' }),
      await registerMember(site.url, { firstName: 'Milo', lastName: 'Maybe' }),
    ];
    for (const guest of guests.slice(0, 3)) await guest.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    await guests[3]!.browser.put(`/api/events/${id}/rsvp/me`, { status: 'maybe' });

    await organiser.goto(`/events/${id}`);
    const tools = organiser.getByRole('region', { name: 'Organizer tools' });
    await tools.waitFor();

    // By keyboard: the Attendees button opens the list, Escape closes it and gives focus back.
    await tools.getByRole('button', { name: 'Attendees', exact: true }).focus();
    await organiser.keyboard.press('Enter');
    const dialog = organiser.getByRole('dialog', { name: 'Attendees' });
    const list = dialog.getByRole('list', { name: 'Who answered' });
    await list.waitFor();
    expect(await list.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/^Walter Cronkite\s+Attending/u),
      expect.stringMatching(/^=SUM\(A1\) Prankster\s+Attending/u),
      expect.stringMatching(/^Grace Waiting\s+Waiting list #1/u),
      expect.stringMatching(/^Milo Maybe\s+Maybe/u),
    ]);
    await dialog.getByText('2 attending · 1 waiting · 1 maybe · 0 not attending').waitFor();
    expect(await accessibilityViolations(organiser)).toEqual([]);
    await screenshot(organiser, 'organisers-attendees-1366');
    await organiser.setViewportSize(PHONE);
    await screenshot(organiser, 'organisers-attendees-390');
    expect(await organiser.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await organiser.setViewportSize(DESKTOP);

    const [download] = await Promise.all([organiser.waitForEvent('download'), dialog.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^Night_shift_reunion_\d{4}-\d\d-\d\d_attendees\.csv$/u);
    const csv = readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toBe('Name,Status,Position,Answered at');
    expect(csv.slice(1, 5).map((line) => line.split(',').slice(0, 3).join(','))).toEqual([
      'Walter Cronkite,Attending,',
      "'=SUM(A1) Prankster,Attending,",
      'Grace Waiting,Waiting list,1',
      'Milo Maybe,Maybe,',
    ]);
    await organiser.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The dialog hands focus back to its button once it has gone (a frame later under load).
    await expect.poll(() => organiser.evaluate(() => document.activeElement?.textContent)).toBe('Attendees');

    // A message to those attending: one outbox entry each.
    await tools.getByRole('button', { name: 'Message attendees' }).click();
    const compose = organiser.getByRole('dialog', { name: 'Message attendees' });
    await compose.getByRole('button', { name: 'Send message' }).click();
    await compose.getByText('Subject is required').waitFor();
    await compose.getByLabel('Subject').fill('Parking at the studio');
    await compose.getByLabel('Message').fill('Park behind Studio B.\n\nThe gate opens at 5.');
    await compose.getByRole('radio', { name: 'Attending (2)' }).waitFor();
    await screenshot(organiser, 'organisers-message-1366');
    await compose.getByRole('button', { name: 'Send message' }).click();
    await organiser.getByText('It is on its way to 2 people. You can send 2 more today.').waitFor();
    await compose.waitFor({ state: 'detached' });
    await expect.poll(() => messageEntries(id)).toBe(2);

    // Two more (with the waiting list), then the dialog says plainly that the day's limit is reached.
    for (const subject of ['Name badges', 'Photos'])
      expect(
        (
          await organiser.request.post(`/api/events/${id}/message`, { data: { subject, body: 'More soon.', to: 'attending+waitlisted' } })
        ).status(),
      ).toBe(202);
    await expect.poll(() => messageEntries(id)).toBe(8);
    await organiser.setViewportSize(PHONE);
    await tools.getByRole('button', { name: 'Message attendees' }).click();
    await compose.getByLabel('Subject').fill('One more thing');
    await compose.getByLabel('Message').fill('Bring a torch.');
    await compose.getByText('Attending and the waiting list (3)').click();
    expect(await compose.getByRole('radio', { name: 'Attending and the waiting list (3)' }).isChecked()).toBe(true);
    await compose.getByRole('button', { name: 'Send message' }).click();
    await compose
      .getByRole('alert')
      .getByText(/3 messages in the last 24 hours/u)
      .waitFor();
    expect(await accessibilityViolations(organiser)).toEqual([]);
    await screenshot(organiser, 'organisers-message-limit-390');
    expect(await organiser.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await organiser.setViewportSize(DESKTOP);
    await screenshot(organiser, 'organisers-message-limit-1366');
    await compose.getByRole('button', { name: 'Cancel' }).click();
    expect(await messageEntries(id)).toBe(8);
  }, 120_000);

  it('copies a private event’s invite link, which lets another member see it and RSVP', async () => {
    const id = await organisersEvent({ title: 'Private listening night', isPublic: false });
    const guest = await registerMember(site.url, { firstName: 'Ivy', lastName: 'Invited' });
    expect((await guest.browser.get(`/api/events/${id}`)).status).toBe(404);

    await organiser.goto(`/events/${id}`);
    const tools = organiser.getByRole('region', { name: 'Organizer tools' });
    await tools.getByRole('button', { name: 'Copy invite link' }).click();
    await organiser.getByText('Invite link copied').first().waitFor();
    const url = await organiser.evaluate(() => navigator.clipboard.readText());
    expect(url).toMatch(new RegExp(`/events/${id}\\?invite=[\\w-]+$`, 'u'));
    // Shown too, to copy by hand where the clipboard is refused.
    expect(await tools.getByLabel('Invite link').inputValue()).toBe(url);
    await organiser.getByRole('button', { name: 'Dismiss notification' }).click();
    await organiser.setViewportSize(PHONE);
    await screenshot(organiser, 'organisers-invite-390');
    expect(await organiser.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await organiser.setViewportSize(DESKTOP);
    await screenshot(organiser, 'organisers-invite-1366');

    // The invited member opens the link in their own browser: the page lets them in, and they RSVP.
    const invited = await openAs(browser, site.url, person('Ivan', 'Invitee'));
    try {
      await invited.page.goto(new URL(url).pathname + new URL(url).search);
      // Three requests in a row (the event refused, the invitation accepted, the event read again): slow beside other
      // browsers on two busy cores.
      await invited.page.getByRole('heading', { name: 'Private listening night' }).waitFor({ timeout: 20_000 });
      await invited.page.getByRole('group', { name: 'Your RSVP' }).getByRole('button', { name: 'Attending', exact: true }).click();
      await invited.page.getByText('RSVP updated successfully').first().waitFor();
      expect(await invited.page.getByRole('region', { name: 'Organizer tools' }).count()).toBe(0);
      // Let in, their page follows the event live like any member's.
      await invited.page.getByText('1 attending', { exact: false }).first().waitFor();
      expect((await organiser.request.put(`/api/events/${id}/rsvp/me`, { data: { status: 'attending' } })).status()).toBe(200);
      await invited.page.getByText('2 attending', { exact: false }).first().waitFor();
    } finally {
      await invited.context.close();
    }
  }, 60_000);

  it('is told by Event Management to cancel an approved event, not reject it', async () => {
    const id = await organisersEvent({ title: 'Antenna raising' });
    const pending = await organiser.request.post('/api/events', {
      data: { title: 'Antenna lowering', startDate: inDays(12), endDate: inDays(12, 21) },
    });
    expect(pending.status()).toBe(201);
    const guest = await registerMember(site.url);
    await guest.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    const staffAccount = person('Stella', 'Staff');
    const staff = await openAs(browser, site.url, staffAccount);
    try {
      const staffId = (await site.services.store.collection('member_credentials').findOne({ email: staffAccount.email }))!._id as string;
      expect((await admin.put(`/api/admin/users/${staffId}/role`, { role: 'staff' })).status).toBe(200);
      await staff.page.setViewportSize(DESKTOP);
      await staff.page.goto('/events/manage');
      await staff.page.getByRole('tab', { name: 'All Events' }).click();
      const approved = staff.page.getByRole('listitem', { name: 'Antenna raising' });
      await approved.getByRole('button', { name: 'Cancel Antenna raising' }).waitFor();
      expect(await approved.getByRole('button', { name: /^Reject/u }).count()).toBe(0);
      await staff.page
        .getByRole('listitem', { name: 'Antenna lowering' })
        .getByRole('button', { name: 'Reject Antenna lowering' })
        .waitFor();
      await approved.getByRole('button', { name: 'Cancel Antenna raising' }).click();
      const confirm = staff.page.getByRole('alertdialog', { name: 'Cancel this event?' });
      await confirm.waitFor();
      await staff.page.setViewportSize(PHONE);
      await screenshot(staff.page, 'organisers-management-cancel-390');
      await staff.page.setViewportSize(DESKTOP);
      await screenshot(staff.page, 'organisers-management-cancel-1366');
      await confirm.getByRole('button', { name: 'Cancel event' }).click();
      await staff.page.getByText('It stays on the calendar as cancelled; its attendees are told.').first().waitFor();
      await approved.getByText('Cancelled').waitFor();
      expect(await approved.getByRole('button', { name: 'Cancel Antenna raising' }).count()).toBe(0);
      expect((await guest.browser.get(`/api/events/${id}`)).body.isCancelled).toBe(true);
    } finally {
      await staff.context.close();
    }
  }, 60_000);
});

describe('a member in another time zone', () => {
  it('reads times in the site’s zone, named, with their own beside; a cancelled event says so and offers no RSVP', async () => {
    const address = { street: '625 S 4th St', city: 'Louisville', region: 'KY', postalCode: '40202', country: 'United States' };
    const id = await organisersEvent({
      title: 'Winter sign-off night',
      location: 'Louisville Palace',
      address,
      geo: { lat: 38.2499, lon: -85.7598 },
      startDate: inDays(40, 1),
      endDate: inDays(40, 3),
    });
    const cancelledStart = inDays(42, 18);
    const cancelled = await organisersEvent({ title: 'Called-off picnic', startDate: cancelledStart, endDate: inDays(42, 20) });
    expect((await admin.post(`/api/events/${cancelled}/cancel`)).status).toBe(200);

    const context = await browser.newContext({ baseURL: site.url, timezoneId: 'America/New_York', viewport: DESKTOP });
    context.setDefaultTimeout(10_000);
    try {
      const page = await context.newPage();
      await registerInBrowser(page, person('Nell', 'Eastcoast'));
      await page.goto(`/events/${id}`);
      // 01:00 UTC is the evening before in Chicago (the site's zone) and an hour later in New York, each named.
      const when = formatEventTime(
        { startDate: inDays(40, 1), endDate: inDays(40, 3), allDay: false },
        { timeZone: 'America/Chicago', readerTimeZone: 'America/New_York' },
      );
      expect(when).toMatch(/ 7:00 PM – 9:00 PM C[SD]T \(8:00 PM – 10:00 PM your time, E[SD]T\)$/u);
      await page.getByText(when).waitFor();
      await page.getByText('625 S 4th St, Louisville, KY 40202, United States').waitFor();
      expect(await page.getByRole('link', { name: 'Show on a map (OpenStreetMap)' }).getAttribute('href')).toBe(
        'https://www.openstreetmap.org/?mlat=38.2499&mlon=-85.7598#map=17/38.2499/-85.7598',
      );
      await screenshot(page, 'organisers-event-place-zone-1366');
      await page.setViewportSize(PHONE);
      await screenshot(page, 'organisers-event-place-zone-390');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

      await page.goto(`/events/${cancelled}`);
      await page.getByText('This event was cancelled. It takes no more RSVPs.').waitFor();
      expect(await page.getByRole('button', { name: 'Attending', exact: true }).count()).toBe(0);
      await screenshot(page, 'organisers-event-cancelled-390');
      await page.setViewportSize(DESKTOP);
      await screenshot(page, 'organisers-event-cancelled-1366');
      // In the month grid it is marked cancelled.
      await page.goto('/calendar');
      const month = new Date(cancelledStart).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'America/Chicago' });
      const grid = page.getByRole('grid', { name: month });
      await page.getByRole('grid').waitFor();
      for (let clicks = 0; clicks < 3 && !(await grid.count()); clicks++) {
        await page.getByRole('button', { name: 'Next month' }).click();
        await page.getByRole('grid').waitFor();
      }
      await screenshot(page, 'organisers-month-cancelled-1366');
      await grid.getByRole('button', { name: 'Cancelled Called-off picnic' }).waitFor();
    } finally {
      await context.close();
    }
  }, 90_000);
});
