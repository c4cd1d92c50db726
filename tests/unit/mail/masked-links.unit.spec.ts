/** The development mailbox's masking of bearer tokens in sign-in, confirmation and unsubscribe links. */
import { describe, expect, it } from 'vitest';
import { MASKED_TOKEN, maskLinkTokens, tokenLinks } from '../../../server/mail/masked-links';

const site = 'https://community.example.org';
const token = 'Zm9vYmFyLWJhei1xdXV4LTAxMjM0NTY3ODlfLUFCQ0RFRg';

describe('maskLinkTokens', () => {
  it("masks the token of a discussion mail's Reply-To address", () => {
    const address = `reply+${'A1b2_-'.repeat(7)}x@community.example.org`;
    expect(maskLinkTokens(`Broadcast History Community <${address}>`)).toBe(
      `Broadcast History Community <reply+${MASKED_TOKEN}@community.example.org>`,
    );
  });

  it.each([
    ['a sign-in link', '/api/auth/magic/'],
    ['a password reset link', '/reset-password/'],
    ['a password reset address of the API', '/api/auth/password-reset/'],
    ['an e-mail change link', '/api/me/email/confirm/'],
    ['a confirmation link to the API', '/api/subscribe/confirm/'],
    ['a confirmation link to the page', '/subscribe/confirm/'],
    ['a one-click unsubscribe address', '/api/unsubscribe/'],
    ['an unsubscribe page link', '/unsubscribe/'],
    ['a one-click mute of discussion mail', '/api/discussions/unsubscribe/'],
  ])('masks the token of %s, keeping the rest of the link', (_name, path) => {
    expect(maskLinkTokens(`${site}${path}${token}`)).toBe(`${site}${path}${MASKED_TOKEN}`);
  });

  it('masks every link in a text part, an HTML part and a List-Unsubscribe header, up to where each link ends', () => {
    const text = `Sign in:\n\n${site}/api/auth/magic/${token}\n\nUnsubscribe [${site}/unsubscribe/${token}] or at ${site}/unsubscribe/${token}\n`;
    expect(maskLinkTokens(text)).toBe(
      `Sign in:\n\n${site}/api/auth/magic/${MASKED_TOKEN}\n\nUnsubscribe [${site}/unsubscribe/${MASKED_TOKEN}] or at ${site}/unsubscribe/${MASKED_TOKEN}\n`,
    );
    const html = `<a href="${site}/subscribe/confirm/${token}">Confirm</a> <a href='${site}/unsubscribe/${token}?from=mail'>Leave</a>`;
    expect(maskLinkTokens(html)).toBe(
      `<a href="${site}/subscribe/confirm/${MASKED_TOKEN}">Confirm</a> <a href='${site}/unsubscribe/${MASKED_TOKEN}?from=mail'>Leave</a>`,
    );
    expect(maskLinkTokens(`<${site}/api/unsubscribe/${token}>`)).toBe(`<${site}/api/unsubscribe/${MASKED_TOKEN}>`);
  });

  it('leaves links without a token alone', () => {
    for (const untouched of [
      `${site}/subscribe/confirmed?error=link`,
      `${site}/unsubscribe`,
      `${site}/subscription-settings`,
      `${site}/blog/${token}`,
      `${site}/#post-${token}`,
      'List-Unsubscribe=One-Click',
    ]) {
      expect(maskLinkTokens(untouched)).toBe(untouched);
    }
  });
});

describe('tokenLinks', () => {
  it('lists the links of this site that carry a token, each once, masked to show and unmasked to follow', () => {
    const text = `Reset: ${site}/reset-password/${token}\nAgain: ${site}/reset-password/${token}\nSettings: ${site}/subscription-settings\nElsewhere: https://other.example.org/reset-password/${token}\n<a href="${site}/unsubscribe/${token}?from=mail">Leave</a>`;
    expect(tokenLinks(text, site)).toEqual([
      { masked: `${site}/reset-password/${MASKED_TOKEN}`, address: `/reset-password/${token}` },
      { masked: `${site}/unsubscribe/${MASKED_TOKEN}?from=mail`, address: `/unsubscribe/${token}?from=mail` },
    ]);
  });
});
