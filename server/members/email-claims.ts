/**
 * Who holds an e-mail address: the stream `email-<HMAC-SHA-256 of the address under EMAIL_CLAIM_SECRET>`, whose last
 * event says it. Registration claims a free address; a member changing address claims the new one first and
 * releases the old one after, so at no moment do two members hold one address (a crash between the two leaves the
 * old one held, never shared).
 *
 * The name is keyed by a server secret so that the log's stream names tell nobody which addresses have an account
 * (an unsalted hash is reversed by hashing a list of addresses). Addresses claimed before were named by the plain
 * SHA-256 (`legacyEmailStream`): a claim held there still counts, and is released there; every new claim is made
 * under the keyed name (docs/guarantees.md#per-stream-serialisation).
 */
import { createHash, createHmac } from 'node:crypto';
import { fail } from '../../shared/domain';
import { streamName, type EmailClaimed, type EmailReleased } from '../../shared/streams';
import { WrongExpectedVersionError, type EventStore } from '../../platform/event-store/port';

/** Enough for any realistic race on one address; each lost round means someone else just claimed or released it. */
const CLAIM_ATTEMPTS = 5;

const normal = (email: string) => email.trim().toLowerCase();

/** The claim stream of an address: its HMAC under the claim secret. */
export function emailStream(secret: string, email: string): string {
  return streamName(
    'email',
    createHmac('sha256', secret)
      .update(`email-claim\0${normal(email)}`)
      .digest('hex'),
  );
}

/** The name claims had before they were keyed: the address's bare SHA-256. Only read, never claimed anew. */
export function legacyEmailStream(email: string): string {
  return streamName('email', createHash('sha256').update(normal(email)).digest('hex'));
}

/** Who holds the address under its old name, if anyone still does. */
async function legacyHolder(eventStore: EventStore, email: string): Promise<string | null> {
  const last = await lastOf(eventStore, legacyEmailStream(email));
  return last?.event.type === 'EmailClaimed' ? last.event.data.memberId : null;
}

async function lastOf(eventStore: EventStore, stream: string) {
  const events = await eventStore.readStream(stream);
  const last = events.at(-1);
  return last && { version: last.version, event: last as unknown as EmailClaimed | EmailReleased };
}

/** Claims the address for `memberId` unless someone holds it; returns who holds it afterwards. */
export async function claimEmail(eventStore: EventStore, secret: string, email: string, memberId: string): Promise<string> {
  const stream = emailStream(secret, email);
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const last = await lastOf(eventStore, stream);
    if (last?.event.type === 'EmailClaimed') return last.event.data.memberId;
    // Claimed before claims were keyed, and not let go since.
    const legacy = await legacyHolder(eventStore, email);
    if (legacy !== null) return legacy;
    const claimed: EmailClaimed = { type: 'EmailClaimed', data: { memberId } };
    try {
      await eventStore.append(stream, [claimed], { expectedVersion: last ? last.version : 'no_stream' });
      return memberId;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
  }
  throw fail.conflict('This e-mail address is being claimed right now. Please try again.');
}

/** Lets the address go, if `memberId` holds it: someone else may register it or move to it. */
export async function releaseEmail(eventStore: EventStore, secret: string, email: string, memberId: string): Promise<void> {
  await releaseIn(eventStore, legacyEmailStream(email), memberId);
  await releaseIn(eventStore, emailStream(secret, email), memberId);
}

async function releaseIn(eventStore: EventStore, stream: string, memberId: string): Promise<void> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const last = await lastOf(eventStore, stream);
    if (last?.event.type !== 'EmailClaimed' || last.event.data.memberId !== memberId) return;
    const released: EmailReleased = { type: 'EmailReleased', data: { memberId } };
    try {
      await eventStore.append(stream, [released], { expectedVersion: last.version });
      return;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
  }
}
