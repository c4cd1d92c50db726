/**
 * Sign-in, e-mail change, subscription-confirmation and unsubscribe links carry a bearer token: whoever holds one signs in as, or acts
 * for, the mail's addressee. The development mailbox shows other people's mail, so it shows these links with the token
 * masked; the sink itself keeps the mail as sent.
 */

export const MASKED_TOKEN = '••••••';

/**
 * Every path that takes a bearer token as its last segment, with or without `/api` (the unsubscribe page and its API,
 * the confirmation page and its API). The token runs to the first character that ends a link in text, HTML or a header.
 */
const TOKEN_LINK = /(\/(?:api\/)?(?:auth\/magic|me\/email\/confirm|subscribe\/confirm|unsubscribe)\/)[^\s"'<>()[\]?#&]+/g;

export function maskLinkTokens(text: string): string {
  return text.replace(TOKEN_LINK, (_link, path: string) => `${path}${MASKED_TOKEN}`);
}
