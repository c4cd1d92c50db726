/**
 * A recurring event in the browser: the organiser makes a weekly series with the form's "Repeats" control (no RRULE
 * typed), sees it on several days of the month grid, and a member answers the second occurrence only. Screenshots of
 * the control and the grid at 1366 and 390 px. Then one date of a series cancelled and another moved by its organiser
 * from the date's dialog, which a plain member's dialog does not offer.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { openAs, person, screenshot, siteInBrowser } from '../support/browser';
import { Browser as Http } from '../support/http';

let site: TestSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
let organiser: Page;
let member: Page;
const pad = (n: number) => String(n).padStart(2, '0');

/** The first Monday of next month, at 18:00 on the browser's clock (UTC here: noon in Chicago). */
function firstMonday() {
  const now = new Date();
  const day = new Date(now.getFullYear(), now.getMonth() + 1, 1);
  while (day.getDay() !== 1) day.setDate(day.getDate() + 1);
  return day;
}
const formValue = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T18:00`;

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_EVENT_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  // The site's first account is its admin: their events are approved at once.
  const first = await openAs(browser, site.url, person('Ada', 'Admin'), '/calendar');
  const second = await openAs(browser, site.url, person('Morris', 'Member'), '/calendar');
  contexts.push(first.context, second.context);
  organiser = first.page;
  member = second.page;
});

describe('recurring events', () => {
  it('makes a weekly series with the Repeats control, shows it on several days, and takes an RSVP for the second time only', async () => {
    const start = firstMonday();
    await organiser.setViewportSize({ width: 1366, height: 900 });
    await member.setViewportSize({ width: 1366, height: 900 });
    await organiser.getByRole('button', { name: 'New Event' }).click();
    const dialog = organiser.getByRole('dialog');
    await dialog.getByLabel('Title', { exact: true }).fill('Tape night');
    await dialog.getByLabel('Start', { exact: true }).fill(formValue(start));
    await dialog.getByRole('combobox', { name: 'Repeats' }).selectOption('weekly');
    // Monday is the start's day, chosen already; Thursday is added.
    expect(await dialog.getByRole('checkbox', { name: 'Monday' }).isChecked()).toBe(true);
    await dialog.getByText('Thu', { exact: true }).click();
    await dialog.getByLabel('Number of times').fill('6');
    await dialog.getByText('Repeats: Weekly on Monday and Thursday, 6 times').waitFor();
    const control = dialog.getByRole('group', { name: 'Repeats' });
    await control.scrollIntoViewIfNeeded();
    await screenshot(organiser, 'recurring-form-1366');
    await organiser.setViewportSize({ width: 390, height: 844 });
    await control.scrollIntoViewIfNeeded();
    await screenshot(organiser, 'recurring-form-390');
    await organiser.setViewportSize({ width: 1366, height: 900 });
    await dialog.getByRole('button', { name: 'Create Event' }).click();
    await organiser.getByText('Your event has been created successfully.').last().waitFor();
    await dialog.waitFor({ state: 'detached' });

    const id = (await site.services.store.collection('event_calendar').findOne({ title: 'Tape night' }))!._id as string;
    const created = await new Http(site.url).get(`/api/events/${id}`);
    expect(created.body).toMatchObject({ isRecurring: true, recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO,TH;COUNT=6' });

    // The member's next month: the series on its days.
    await member.getByRole('button', { name: 'Next month' }).click();
    const inGrid = member.getByRole('gridcell').getByRole('button', { name: 'Tape night' });
    await inGrid.first().waitFor();
    expect(await inGrid.count()).toBeGreaterThanOrEqual(3);
    await screenshot(member, 'recurring-month-1366');
    await member.setViewportSize({ width: 390, height: 844 });
    await screenshot(member, 'recurring-month-390');
    await member.setViewportSize({ width: 1366, height: 900 });

    // The second time: the Thursday after the start.
    await inGrid.nth(1).click();
    const details = member.getByRole('dialog');
    const thursday = new Date(start.getTime() + 3 * 24 * 3600 * 1000);
    await details
      .getByText(thursday.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }))
      .first()
      .waitFor();
    await details.getByText('Repeats: weekly on Monday and Thursday, 6 times').waitFor();
    await details.getByRole('button', { name: 'Attending', exact: true }).click();
    await member.getByText('RSVP updated successfully').last().waitFor();

    const second = new Date(Date.UTC(thursday.getFullYear(), thursday.getMonth(), thursday.getDate(), 18)).toISOString();
    const anyone = new Http(site.url);
    expect((await anyone.get(`/api/events/${id}?occurrence=${second}`)).body).toMatchObject({ occurrenceStart: second, attendeeCount: 1 });
    expect((await anyone.get(`/api/events/${id}`)).body).toMatchObject({ attendeeCount: 0 });
  }, 60_000);

  it("cancels one date of a series and moves another from the date's dialog; a member is offered neither", async () => {
    const start = firstMonday();
    const at = (days: number, hours: number) => new Date(Date.UTC(start.getFullYear(), start.getMonth(), start.getDate() + days, hours));
    const longDate = (d: Date) =>
      d.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
    await organiser.setViewportSize({ width: 1366, height: 900 });
    await member.setViewportSize({ width: 1366, height: 900 });
    // Mondays at 18:00 UTC (noon in Chicago), four times, all in next month.
    const made = await organiser.request.post('/api/events', {
      data: {
        title: 'Reel club',
        location: 'Studio B',
        startDate: at(0, 18).toISOString(),
        endDate: at(0, 19).toISOString(),
        recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=4',
      },
    });
    expect(made.status()).toBe(201);
    const id = ((await made.json()) as { id: string }).id;

    await organiser.goto('/calendar');
    await organiser.getByRole('button', { name: 'Next month' }).click();
    const inGrid = organiser.getByRole('gridcell').getByRole('button', { name: 'Reel club' });
    await inGrid.nth(3).waitFor();

    // The second date, cancelled with a reason.
    await inGrid.nth(1).click();
    const details = organiser.getByRole('dialog', { name: 'Reel club' });
    await details
      .getByText(longDate(at(7, 18)))
      .first()
      .waitFor();
    await details.getByRole('button', { name: 'Cancel this date' }).click();
    const confirm = organiser.getByRole('alertdialog', { name: 'Cancel this date?' });
    await confirm.getByLabel('Reason (optional)').fill('The studio is booked that night.');
    await confirm.getByRole('button', { name: 'Cancel the date' }).click();
    await organiser.getByText('Date cancelled', { exact: true }).last().waitFor();
    await confirm.waitFor({ state: 'detached' });
    await details.getByText('Cancelled', { exact: true }).waitFor();
    expect(await details.getByRole('button', { name: 'Cancel this date' }).count()).toBe(0);
    await details.getByRole('button', { name: 'Close', exact: true }).click();
    await organiser.getByRole('gridcell').getByRole('button', { name: 'Cancelled Reel club' }).waitFor();
    expect(await organiser.getByRole('gridcell').getByRole('button', { name: 'Reel club' }).count()).toBe(4);

    // The third date, moved to the Tuesday after it, 20:00-21:30 UTC.
    await inGrid.nth(2).click();
    await details
      .getByText(longDate(at(14, 18)))
      .first()
      .waitFor();
    await details.getByRole('button', { name: 'Move this date' }).click();
    const move = organiser.getByRole('dialog', { name: 'Move this date' });
    const start14 = at(14, 18);
    // Prefilled with the date's own times (the browser's clock is UTC).
    expect(await move.getByLabel('Start', { exact: true }).inputValue()).toBe(
      `${start14.getUTCFullYear()}-${pad(start14.getUTCMonth() + 1)}-${pad(start14.getUTCDate())}T18:00`,
    );
    const moved = at(15, 20);
    const day = `${moved.getUTCFullYear()}-${pad(moved.getUTCMonth() + 1)}-${pad(moved.getUTCDate())}`;
    await move.getByLabel('Start', { exact: true }).fill(`${day}T20:00`);
    await move.getByLabel('End', { exact: true }).fill(`${day}T21:30`);
    await move.scrollIntoViewIfNeeded();
    await screenshot(organiser, 'occurrence-move-1366');
    await organiser.setViewportSize({ width: 390, height: 844 });
    await screenshot(organiser, 'occurrence-move-390');
    await organiser.setViewportSize({ width: 1366, height: 900 });
    await move.getByRole('button', { name: 'Move the date' }).click();
    await organiser.getByText('Date moved', { exact: true }).last().waitFor();
    await move.waitFor({ state: 'detached' });
    // Its dialog shows it on the Tuesday, at its new time in the site's zone (Chicago).
    const hour = moved.toLocaleTimeString('en-US', { hour: 'numeric', timeZone: 'America/Chicago' }).split(/\s/)[0];
    await details.getByText(longDate(moved)).first().waitFor();
    await details
      .getByText(new RegExp(`${hour}:00\\sPM`))
      .first()
      .waitFor();
    await details.getByRole('button', { name: 'Close', exact: true }).click();

    const third = at(14, 18).toISOString();
    const anyone = new Http(site.url);
    expect((await anyone.get(`/api/events/${id}?occurrence=${at(7, 18).toISOString()}`)).body).toMatchObject({ isCancelled: true });
    expect((await anyone.get(`/api/events/${id}?occurrence=${third}`)).body).toMatchObject({
      occurrenceStart: third,
      startDate: moved.toISOString(),
      endDate: new Date(moved.getTime() + 90 * 60 * 1000).toISOString(),
      isCancelled: false,
    });
    // The grid: four days with a date of the series (the cancelled one marked, the moved one on its Tuesday).
    const days = organiser.getByRole('gridcell').filter({ has: organiser.getByRole('button', { name: 'Reel club' }) });
    expect(await days.count()).toBe(4);
    await screenshot(organiser, 'occurrence-month-1366');
    await organiser.setViewportSize({ width: 390, height: 844 });
    await screenshot(organiser, 'occurrence-month-390');
    await organiser.setViewportSize({ width: 1366, height: 900 });

    // A plain member opens the last date: neither action.
    await member.goto('/calendar');
    await member.getByRole('button', { name: 'Next month' }).click();
    const memberGrid = member.getByRole('gridcell').getByRole('button', { name: 'Reel club' });
    await memberGrid.nth(3).click();
    const memberDetails = member.getByRole('dialog', { name: 'Reel club' });
    await memberDetails
      .getByText(longDate(at(21, 18)))
      .first()
      .waitFor();
    await memberDetails.getByRole('button', { name: 'Download to calendar (.ics)' }).waitFor();
    expect(await memberDetails.getByRole('button', { name: 'Cancel this date' }).count()).toBe(0);
    expect(await memberDetails.getByRole('button', { name: 'Move this date' }).count()).toBe(0);
  }, 90_000);
});
