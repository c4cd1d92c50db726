/**
 * The link token of a subscription: it confirms a guest's subscription and unsubscribes from it.
 *
 * Every mail of a subscription must carry its token, yet only the token's SHA-256 may be stored.
 * So the token is not kept anywhere: it is the HMAC-SHA256 of the subscription id under a server
 * secret (32 bytes, unguessable without the secret, the same for every mail of one subscription),
 * and the mail worker derives it again when it renders a mail. The event log and read models hold
 * only its hash, which is what a link is looked up by.
 */
import { createHash, createHmac } from 'node:crypto';

export function subscriptionToken(secret: string, subscriptionId: string): string {
  return createHmac('sha256', secret).update(`subscription:${subscriptionId}`).digest('base64url');
}

export function hashSubscriptionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The token of a member's private calendar feed URL, derived the same way: from the member and the feed's generation,
 * so the URL can be shown again without being stored, and a reset (the next generation) makes a new one.
 */
export function calendarFeedToken(secret: string, memberId: string, generation: number): string {
  return createHmac('sha256', secret).update(`calendar:${memberId}:${generation}`).digest('base64url');
}

/**
 * The key of a mail address in outbox ids (`item:<key>:…`): one item reaches one address once, whatever subscriptions
 * of it overlap, so the second mail's id is the first's and inserting it is a no-op. Keyed like the tokens, so the
 * outbox does not tell which addresses it mails without the secret; the address is trimmed and lowercased first.
 */
export function mailAddressKey(secret: string, email: string): string {
  return createHmac('sha256', secret).update(`address:${email.trim().toLowerCase()}`).digest('base64url').slice(0, 32);
}
