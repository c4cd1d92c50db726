/**
 * A recurring event in the browser: the organiser makes a weekly series with the form's "Repeats" control (no RRULE
 * typed), sees it on several days of the month grid, and a member answers the second occurrence only. Screenshots of
 * the control and the grid at 1366 and 390 px.
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
});
