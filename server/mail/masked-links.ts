/**
 * Sign-in, registration, password reset, e-mail change, subscription-confirmation and unsubscribe links, and the Reply-To address of
 * discussion mail, carry a bearer token: whoever holds one signs in as, or acts
 * for, the mail's addressee. The development mailbox shows other people's mail, so it shows these links with the token
 * masked; the sink itself keeps the mail as sent.
 */

export const MASKED_TOKEN = '••••••';

/**
 * Every path that takes a bearer token as its last segment, with or without `/api` (the unsubscribe page and its API,
 * the confirmation page and its API). The token runs to the first character that ends a link in text, HTML or a header.
 */
const TOKEN_LINK =
  /(\/(?:api\/)?(?:auth\/magic|auth\/register\/confirm|auth\/password-reset|reset-password|me\/email\/confirm|subscribe\/confirm|unsubscribe)\/)[^\s"'<>()[\]?#&]+/g;

/** The Reply-To address of discussion mail, whose token posts replies as the addressee (platform/mail/reply-tokens.ts). */
const REPLY_ADDRESS_TOKEN = /(reply\+)[A-Za-z0-9_-]{43}(?=@)/g;

export function maskLinkTokens(text: string): string {
  return text
    .replace(TOKEN_LINK, (_link, path: string) => `${path}${MASKED_TOKEN}`)
    .replace(REPLY_ADDRESS_TOKEN, (_address, prefix: string) => `${prefix}${MASKED_TOKEN}`);
}

/**
 * The links of a mail's text that carry a token, in order and each once, as addresses: `masked` to show, `address`
 * (the path on this site, unmasked) for the development mailbox's "follow this link". Only links to `origin`.
 */
export function tokenLinks(text: string, origin: string): { masked: string; address: string }[] {
  const found = new Map<string, string>();
  for (const [link] of text.matchAll(/https?:\/\/[^\s"'<>()[\]]+/g)) {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      continue;
    }
    const address = `${url.pathname}${url.search}`;
    if (url.origin !== origin || maskLinkTokens(url.pathname) === url.pathname) continue;
    if (!found.has(address)) found.set(address, maskLinkTokens(link));
  }
  return [...found].map(([address, masked]) => ({ masked, address }));
}
