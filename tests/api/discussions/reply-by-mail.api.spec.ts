/**
 * Discussions by mail on a real site (issue 34): watchers are mailed each new reply through the outbox (caught by the
 * in-process SMTP sink), with a Reply-To address, one-click mute and the reply's link; a watcher answers that mail
 * over a real SMTP conversation with the inbound role's listener, and the reply appears in the topic. A stranger's
 * sender, another member's token, an unknown token, a locked topic and an empty body are refused at the SMTP level,
 * and nothing is posted.
 */
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../../support/site';
import { type Browser, registerCast, registerMember } from '../../support/http';
import type { CapturedMail } from '../../../platform/mail/smtp-sink';
import { mailDigestReplies } from '../../../workers/discussions/watcher-mail';

let site: TestSite;
let staff: Browser;
let stanEmail: string;
let mona: { browser: Browser; email: string };
let otto: { browser: Browser; email: string };
let walt: { browser: Browser; email: string };
let topicId: string;
const TITLE = 'Who remembers the KRNT night crew?';

beforeAll(async () => {
  site = await startTestSite({
    ...UNLIMITED_RATES,
    RATE_LIMIT_MAIL_REPLY_MAX: '2',
    ROLES: 'api,projections,workers,inbound',
    INBOUND_SMTP_PORT: '0',
  });
  const cast = await registerCast(site.url);
  staff = cast.staff.browser;
  stanEmail = cast.staff.account.email;
  mona = { browser: cast.member.browser, email: cast.member.account.email };
  otto = { browser: cast.other.browser, email: cast.other.account.email };
  const third = await registerMember(site.url, { firstName: 'Walt', lastName: 'Watcher' });
  walt = { browser: third.browser, email: third.account.email };
  const categoryId = (await staff.post('/api/admin/categories', { name: 'Stations and People' })).body.id;
  topicId = (await mona.browser.post('/api/topics', { title: TITLE, content: '<p>Hal ran the board, I think.</p>', categoryId })).body.id;
});
afterAll(async () => {
  await site?.close();
});

const mailTo = (address: string, replyId: string) =>
  site.services.mailbox.waitFor((mail) => mail.to.includes(address) && mail.html.includes(`#reply-${replyId}`));
const mailsTo = async (address: string) => (await site.services.mailbox.all()).filter((mail) => mail.to.includes(address));
const replyAddressOf = (mail: CapturedMail) => /reply\+[A-Za-z0-9_-]{43}@[a-z0-9.-]+/u.exec(mail.headers['reply-to'] ?? '')![0];
const replies = async () =>
  (await mona.browser.get(`/api/topics/${topicId}`)).body.replies.items as { id: string; content: string; author: { name: string } }[];

/** Sends a mail to the inbound listener as a mail program would; resolves with the SMTP answer, or rejects with the refusal. */
async function mailIn(message: { from: string; to: string; text: string; headers?: Record<string, string> }) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: site.inboundPort!, secure: false, ignoreTLS: true });
  try {
    return await transport.sendMail({ subject: `Re: ${TITLE}`, ...message });
  } finally {
    transport.close();
  }
}
const refusal = (sending: Promise<unknown>) =>
  sending.then(
    () => ({ code: 250, response: 'accepted' }),
    (error: { responseCode?: number; response?: string }) => ({ code: error.responseCode, response: error.response ?? '' }),
  );

/** A reply as Gmail writes one: the member's words over the quoted mail. */
const gmailReply = (words: string) =>
  [
    words,
    '',
    'On Thu, Nov 26, 2026 at 10:04 AM Broadcast History Community <',
    'community@localhost> wrote:',
    '',
    `> ${TITLE}`,
    '> Hal ran the board, I think.',
  ].join('\r\n');

let firstReply: string;
let monaMail: CapturedMail;
let ottoMail: CapturedMail;

describe('mail to watchers', () => {
  it('goes to the watchers but the reply’s author, with a Reply-To address, one-click mute, threading and the reply’s link', async () => {
    expect((await walt.browser.put(`/api/topics/${topicId}/watch`, { level: 'watching' })).status).toBeLessThan(300);
    expect((await walt.browser.put(`/api/topics/${topicId}/watch`, { level: 'muted' })).status).toBeLessThan(300);
    const posted = await otto.browser.post(`/api/topics/${topicId}/replies`, { content: '<p>Hal, and Ted after him.</p>' });
    expect(posted.status).toBe(201);
    firstReply = posted.body.id;

    monaMail = await mailTo(mona.email, firstReply);
    expect(monaMail.subject).toBe(`Re: ${TITLE}`);
    expect(monaMail.html).toContain('Hal, and Ted after him.');
    expect(monaMail.html).toContain(`${site.url}/discussions/topics/${topicId}#reply-${firstReply}`);
    const host = new URL(site.url).hostname;
    expect(replyAddressOf(monaMail)).toMatch(new RegExp(`^reply\\+[A-Za-z0-9_-]{43}@${host.replaceAll('.', '\\.')}$`, 'u'));
    expect(monaMail.headers['list-unsubscribe']).toMatch(new RegExp(`^<${site.url}/api/discussions/unsubscribe/[A-Za-z0-9_-]{43}>$`, 'u'));
    expect(monaMail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(monaMail.headers['in-reply-to']).toBe(`<topic-${topicId}@${host}>`);
    expect(monaMail.headers['references']).toBe(`<topic-${topicId}@${host}>`);
    expect(monaMail.headers['message-id']).toMatch(/^<[0-9a-f]{32}@/u);
  });
});

describe('a reply by mail', () => {
  it('from the watcher’s own address is posted as them, quoted text stripped, and mailed to the other watchers', async () => {
    const answer = await mailIn({
      // The address in another case: mail programs keep what the member typed.
      from: `"Mona Member" <${mona.email.toUpperCase()}>`,
      to: replyAddressOf(monaMail),
      text: gmailReply('Ted Lowry! He ran it until 1970.\n\nSent from my iPhone'),
      headers: { 'In-Reply-To': monaMail.headers['message-id']! },
    });
    expect(answer.response).toMatch(/^250/u);
    const posted = (await replies()).at(-1)!;
    expect(posted).toMatchObject({ content: '<p>Ted Lowry! He ran it until 1970.</p>', author: { name: 'Mona Member' } });

    // Otto watches since he replied; Mona wrote this one and gets nothing of it.
    ottoMail = await mailTo(otto.email, posted.id);
    expect(ottoMail.html).toContain('Ted Lowry! He ran it until 1970.');
    expect((await mailsTo(otto.email)).some((mail) => mail.html.includes(`#reply-${firstReply}`))).toBe(false);
    expect((await mailsTo(mona.email)).some((mail) => mail.html.includes(`#reply-${posted.id}`))).toBe(false);
    // Walt muted the topic: not one mail.
    expect(await mailsTo(walt.email)).toEqual([]);
  });

  it('of HTML alone is read from its HTML, without the quoted message', async () => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: site.inboundPort!, secure: false, ignoreTLS: true });
    await transport.sendMail({
      from: otto.email,
      to: replyAddressOf(ottoMail),
      subject: `Re: ${TITLE}`,
      html:
        '<div dir="ltr">Gus kept the <b>logbooks</b> &amp; the tapes.</div><div class="gmail_quote">' +
        '<div class="gmail_attr">On Thu wrote:</div><blockquote class="gmail_quote">Ted Lowry!</blockquote></div>',
    });
    transport.close();
    expect((await replies()).at(-1)).toMatchObject({
      content: '<p>Gus kept the logbooks &amp; the tapes.</p>',
      author: { name: 'Otto Other' },
    });
  });

  it('is refused at the SMTP level, and nothing posted, from a stranger, with another’s token, an unknown token or nothing but quotes', async () => {
    const before = (await replies()).length;
    const stranger = await refusal(mailIn({ from: 'stranger@example.net', to: replyAddressOf(monaMail), text: 'Spam' }));
    expect(stranger).toMatchObject({ code: 550 });
    expect(stranger.response).toContain('address the discussion mail was sent to');

    // Otto, from his own address, answering with Mona's address.
    expect(await refusal(mailIn({ from: otto.email, to: replyAddressOf(monaMail), text: 'As Mona' }))).toMatchObject({ code: 550 });

    const unknown = `reply+${randomBytes(32).toString('base64url')}@${new URL(site.url).hostname}`;
    const unknownAnswer = await refusal(mailIn({ from: mona.email, to: unknown, text: 'Hello' }));
    expect(unknownAnswer).toMatchObject({ code: 550 });
    expect(unknownAnswer.response).toContain('This reply address is unknown');
    expect(await refusal(mailIn({ from: mona.email, to: `someone@${new URL(site.url).hostname}`, text: 'Hello' }))).toMatchObject({
      code: 550,
    });

    const empty = await refusal(mailIn({ from: mona.email, to: replyAddressOf(monaMail), text: gmailReply('') }));
    expect(empty).toMatchObject({ code: 550 });
    expect(empty.response).toContain('empty');

    const automatic = await refusal(
      mailIn({
        from: mona.email,
        to: replyAddressOf(monaMail),
        text: 'I am out of the office',
        headers: { 'Auto-Submitted': 'auto-replied' },
      }),
    );
    expect(automatic).toMatchObject({ code: 550 });
    expect((await replies()).length).toBe(before);
  });

  it('is refused while the topic is locked', async () => {
    const before = (await replies()).length;
    expect((await staff.put(`/api/admin/topics/${topicId}`, { locked: true })).status).toBe(200);
    const locked = await refusal(mailIn({ from: mona.email, to: replyAddressOf(monaMail), text: 'One more thing' }));
    expect(locked).toMatchObject({ code: 550 });
    expect(locked.response).toContain('This topic is locked');
    expect((await replies()).length).toBe(before);
    expect((await staff.put(`/api/admin/topics/${topicId}`, { locked: false })).status).toBe(200);
  });
});

describe('a watcher whose subscription is a daily digest', () => {
  it('gets the topic’s replies in the digest, not at once, each with a "Reply by e-mail" address that posts as them', async () => {
    const dora = await registerMember(site.url, { firstName: 'Dora', lastName: 'Digest' });
    expect((await dora.browser.post('/api/subscriptions', { subscriptionType: 'blog_posts', frequency: 'daily' })).status).toBe(201);
    expect((await dora.browser.put(`/api/topics/${topicId}/watch`, { level: 'watching' })).status).toBeLessThan(300);
    const reply = (await otto.browser.post(`/api/topics/${topicId}/replies`, { content: '<p>The night crew met at Sully’s.</p>' })).body.id;
    // Mona's mail of it is written with Dora's waiting reply: the mail runner has been past it.
    await mailTo(mona.email, reply);
    expect((await mailsTo(dora.account.email)).length).toBe(0);

    expect(await mailDigestReplies(site.services.store).countDocuments({ memberId: dora.user.id })).toBe(1);
    expect((await site.services.subscriptionMail.runDigest('daily')).written).toBe(1);
    // Collected: the next digest does not carry it again.
    expect(await mailDigestReplies(site.services.store).countDocuments({ memberId: dora.user.id })).toBe(0);
    const digest = await mailTo(dora.account.email, reply);
    expect(digest.subject).toContain('1 reply in topics you watch');
    expect(digest.html).toContain('The night crew met at Sully’s.');
    const address = /mailto:(reply\+[A-Za-z0-9_-]{43}@[a-z0-9.-]+)/u.exec(digest.html)![1]!;
    const answered = await mailIn({ from: dora.account.email, to: address, text: 'I was there in 1966!' });
    expect(answered.response).toMatch(/^250/u);
    expect((await replies()).at(-1)).toMatchObject({ content: '<p>I was there in 1966!</p>', author: { name: 'Dora Digest' } });
  });
});

describe('replies by mail per member', () => {
  it('are limited per hour (RATE_LIMIT_MAIL_REPLY_MAX, here 2): past it the sender is told to try later (451), nothing posted', async () => {
    // Mona's first reply by mail counts; refused ones (the locked topic's) do not.
    const second = await mailIn({ from: mona.email, to: replyAddressOf(monaMail), text: 'Gus Berg was the engineer.' });
    expect(second.response).toMatch(/^250/u);
    const before = (await replies()).length;
    const third = await refusal(mailIn({ from: mona.email, to: replyAddressOf(monaMail), text: 'And one more.' }));
    expect(third).toMatchObject({ code: 451 });
    expect((await replies()).length).toBe(before);
  });
});

describe('one-click unsubscribe', () => {
  it('mutes the topic for the mail’s member (RFC 8058), and no more mail comes', async () => {
    const url = /^<(.+)>$/u.exec(monaMail.headers['list-unsubscribe']!)![1]!;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, topicId, level: 'muted' });
    expect((await mona.browser.get(`/api/topics/${topicId}`)).body.topic.watch).toBe('muted');
    expect((await fetch(url.replace(/[A-Za-z0-9_-]{43}$/u, 'x'.repeat(43)), { method: 'POST' })).status).toBe(404);

    // Stan watches now: his mail of the next reply is written with Mona's, were she still watching.
    expect((await staff.put(`/api/topics/${topicId}/watch`, { level: 'watching' })).status).toBeLessThan(300);
    const later = (await otto.browser.post(`/api/topics/${topicId}/replies`, { content: '<p>And the engineer was Gus.</p>' })).body.id;
    await mailTo(stanEmail, later);
    expect((await mailsTo(mona.email)).some((mail) => mail.html.includes(`#reply-${later}`))).toBe(false);
  });
});
