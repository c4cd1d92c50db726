/**
 * Events' mail and calendar files in the api tests: a site whose cast is mailed through a counting SMTP server (the
 * attendees of events), the iCalendar file a mail carries, and khal, a real calendar client, in a home of its own.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, expect } from 'vitest';
import { startCountingSmtp, type CountingSmtp, type ReceivedMail } from '../api/subscriptions/delivery-fixtures';
import { registerCast, type Browser } from './http';
import { startTestSite, type TestSite } from './site';

const run = promisify(execFile);

/** A member of the cast who answers events, and the address their mail goes to. */
export interface Attendee {
  browser: Browser;
  email: string;
}

/** What mailedCastSite starts: the counting SMTP server, the site, and the cast's admin and two members. */
export interface MailedCast {
  smtp: CountingSmtp;
  site: TestSite;
  admin: Browser;
  member: Attendee;
  other: Attendee;
}

/**
 * For the enclosing file: a site in Chicago at `publicUrl` (event and sign-in limits lifted) mailing through a counting
 * SMTP server of its own, with the cast of accounts (registerCast) on it; made before its tests and handed to `ready`,
 * both closed after them.
 */
export function mailedCastSite(publicUrl: string, ready: (started: MailedCast) => void): void {
  let smtp: CountingSmtp | undefined;
  let site: TestSite | undefined;
  beforeAll(async () => {
    smtp = await startCountingSmtp();
    site = await startTestSite({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      PUBLIC_URL: publicUrl,
      TIME_ZONE: 'America/Chicago',
      RATE_LIMIT_EVENT_MAX: '1000',
      RATE_LIMIT_AUTH_MAX: '1000',
    });
    const cast = await registerCast(site.url);
    const attendee = ({ browser, user }: { browser: Browser; user: { email: string } }): Attendee => ({ browser, email: user.email });
    ready({ smtp, site, admin: cast.admin.browser, member: attendee(cast.member), other: attendee(cast.other) });
  }, 60_000);
  afterAll(async () => {
    await site?.close();
    await smtp?.close();
  });
}

/** The text of the calendar file a mail carries (its text/calendar part, which must be there). */
export async function calendarText(mail: ReceivedMail): Promise<string> {
  const parsed = await PostalMime.parse(mail.raw);
  const part = parsed.attachments.find((attachment) => attachment.mimeType.startsWith('text/calendar'));
  expect(part, `a text/calendar part in “${mail.subject}”`).toBeDefined();
  return typeof part!.content === 'string' ? part!.content : new TextDecoder().decode(part!.content);
}

/** What a khal lists: the lines in `format` from the day `from` over `span` (khal's own words, `30d`) that name `title`. */
export interface KhalView {
  zone: string;
  format: string;
  from: string;
  span: string;
  title: string;
}

/**
 * A khal of its own, in `view.zone`, for `use`: `take` imports a calendar file (one after the other, as a calendar app
 * receives them) and answers what khal then lists (`view`). Its home is removed after.
 */
export async function withKhal<T>(view: KhalView, use: (khal: { take(text: string): Promise<string[]> }) => Promise<T>): Promise<T> {
  const home = await mkdtemp(join(tmpdir(), 'khal-'));
  try {
    const config = join(home, 'config');
    await writeFile(
      config,
      `[calendars]\n[[community]]\npath = ${join(home, 'calendar')}\ntype = calendar\n[locale]\ntimeformat = %H:%M\ndateformat = %Y-%m-%d\nlongdateformat = %Y-%m-%d\ndatetimeformat = %Y-%m-%d %H:%M\nlongdatetimeformat = %Y-%m-%d %H:%M\nlocal_timezone = ${view.zone}\ndefault_timezone = ${view.zone}\n`,
    );
    await run('mkdir', ['-p', join(home, 'calendar')]);
    let count = 0;
    return await use({
      async take(text) {
        const file = join(home, `${count++}.ics`);
        await writeFile(file, text);
        await run('khal', ['-c', config, 'import', '--batch', file]);
        return (await run('khal', ['-c', config, 'list', '--format', view.format, view.from, view.span])).stdout
          .split('\n')
          .filter((line) => line.includes(view.title));
      },
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
