/**
 * The development mailbox against the whole site and its real SMTP sink: staff cannot read it (a staff member who asks
 * for a sign-in link to the admin's address must not be able to open it), and admins read every mail with the tokens
 * of its sign-in, confirmation and unsubscribe links masked, in the subject, both parts and every header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerCast } from '../support/http';
import { MASKED_TOKEN } from '../../server/mail/masked-links';
import type { CapturedMail } from '../../platform/mail/smtp-sink';

let site: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000' });
  cast = await registerCast(site.url);
});
afterAll(async () => {
  await site?.close();
});

const adminEmail = () => cast.admin.user.email.toLowerCase();

describe('the mailbox', () => {
  it("keeps a staff member who asked for the admin's sign-in link from reading it", async () => {
    expect((await cast.staff.browser.post('/api/auth/magic-link', { email: cast.admin.user.email })).status).toBe(202);
    const sent = await site.services.mailbox.waitFor((mail) => mail.to.includes(adminEmail()) && /\/api\/auth\/magic\//.test(mail.text));

    expect((await cast.staff.browser.get('/api/admin/mailbox')).status).toBe(403);
    expect((await cast.staff.browser.get(`/api/admin/mailbox/${sent.id}`)).status).toBe(403);
    for (const { browser } of [cast.member, cast.subscriber]) expect((await browser.get(`/api/admin/mailbox/${sent.id}`)).status).toBe(403);
    expect((await new Browser(site.url).get(`/api/admin/mailbox/${sent.id}`)).status).toBe(401);
    // The staff member is still who they were.
    expect((await cast.staff.browser.get('/api/auth/user')).body).toMatchObject({ id: cast.staff.user.id, role: 'staff' });
  });

  it('shows the admin a sign-in mail with its token masked everywhere; the masked link signs nobody in, the real one still works', async () => {
    const earlier = new Set((await site.services.mailbox.all()).map((mail) => mail.id));
    const visitor = new Browser(site.url);
    expect((await visitor.post('/api/auth/magic-link', { email: cast.admin.user.email })).status).toBe(202);
    const sent = await site.services.mailbox.waitFor((mail) => !earlier.has(mail.id) && mail.to.includes(adminEmail()));
    const token = sent.text.match(/\/api\/auth\/magic\/([A-Za-z0-9_-]+)/)![1]!;

    const list = await cast.admin.browser.get<{ id: string; subject: string }[]>('/api/admin/mailbox');
    expect(list.status).toBe(200);
    expect(list.body.map((mail) => mail.id)).toContain(sent.id);
    const shown = await cast.admin.browser.get<CapturedMail>(`/api/admin/mailbox/${sent.id}`);
    expect(shown.status).toBe(200);
    const masked = `${site.services.config.publicUrl}/api/auth/magic/${MASKED_TOKEN}`;
    expect(shown.body.text).toContain(masked);
    expect(shown.body.html).toContain(`href="${masked}"`);
    expect(JSON.stringify(shown.body)).not.toContain(token);
    expect(JSON.stringify(list.body)).not.toContain(token);

    const opened = await visitor.post(`/api/auth/magic/${encodeURIComponent(MASKED_TOKEN)}`);
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/login?error=link');
    expect((await visitor.get('/api/auth/user')).status).toBe(401);

    // The sink keeps the mail as sent: its addressee's link is untouched by the admin's reading.
    const addressee = new Browser(site.url);
    expect((await addressee.post(`/api/auth/magic/${token}`)).headers.get('location')).toBe('/');
    expect((await addressee.get('/api/auth/user')).body).toMatchObject({ id: cast.admin.user.id });
  });

  it("masks a guest's confirmation link in both parts and the one-click unsubscribe address in the List-Unsubscribe header", async () => {
    const email = `mailbox-guest-${Date.now()}@example.org`;
    expect(
      (await new Browser(site.url).post('/api/subscribe', { email, subscriptionType: 'blog_posts', frequency: 'immediate' })).status,
    ).toBe(202);
    const sent = await site.services.mailbox.waitFor((mail) => mail.to.includes(email));
    const unsubscribeHeader = sent.headers['list-unsubscribe']!;
    const token = unsubscribeHeader.match(/\/api\/unsubscribe\/([A-Za-z0-9_-]+)>/)![1]!;
    expect(sent.text).toContain(`/subscribe/confirm/${token}`);

    const shown = await cast.admin.browser.get<CapturedMail>(`/api/admin/mailbox/${sent.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.headers['list-unsubscribe']).toBe(`<${site.services.config.publicUrl}/api/unsubscribe/${MASKED_TOKEN}>`);
    expect(shown.body.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(shown.body.text).toContain(`/subscribe/confirm/${MASKED_TOKEN}`);
    expect(shown.body.html).toContain(`/subscribe/confirm/${MASKED_TOKEN}`);
    expect(JSON.stringify(shown.body)).not.toContain(token);
    expect(shown.body).toMatchObject({ id: sent.id, to: [email], subject: sent.subject, from: sent.from });
  });

  it("masks the unsubscribe page link of a member's newsfeed mail", async () => {
    const email = cast.member.user.email.toLowerCase();
    expect((await cast.member.browser.post('/api/subscriptions', { subscriptionType: 'newsfeed', frequency: 'immediate' })).status).toBe(
      201,
    );
    expect((await cast.admin.browser.post('/api/posts', { content: 'The 1950 transmitter log turned up' })).status).toBe(201);
    const sent = await site.services.mailbox.waitFor((mail) => mail.to.includes(email) && mail.subject.startsWith('New in the newsfeed'));
    const token = sent.text.match(/\/unsubscribe\/([A-Za-z0-9_-]+)/)![1]!;

    const shown = await cast.admin.browser.get<CapturedMail>(`/api/admin/mailbox/${sent.id}`);
    expect(shown.body.text).toContain(`${site.services.config.publicUrl}/unsubscribe/${MASKED_TOKEN}`);
    expect(shown.body.html).toContain(`${site.services.config.publicUrl}/unsubscribe/${MASKED_TOKEN}`);
    expect(shown.body.text).toContain('The 1950 transmitter log turned up');
    expect(JSON.stringify(shown.body)).not.toContain(token);
  });

  it('lets staff keep looking up consent records', async () => {
    expect((await cast.staff.browser.get(`/api/admin/subscriptions?email=${encodeURIComponent('nobody@example.org')}`)).status).toBe(200);
  });
});
