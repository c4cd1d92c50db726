/**
 * Who holds an e-mail address: the stream `email-<sha256 of the address>`, whose last event says it. Registration
 * claims a free address; a member changing address claims the new one first and releases the old one after, so
 * at no moment do two members hold one address (a crash between the two leaves the old one held, never shared).
 */
import { createHash } from 'node:crypto';
import { fail } from '../../shared/domain';
import { streamName, type EmailClaimed, type EmailReleased } from '../../shared/streams';
import { WrongExpectedVersionError, type EventStore } from '../../platform/event-store/port';

/** Enough for any realistic race on one address; each lost round means someone else just claimed or released it. */
const CLAIM_ATTEMPTS = 5;

export function emailStream(email: string): string {
  return streamName('email', createHash('sha256').update(email.trim().toLowerCase()).digest('hex'));
}

async function lastOf(eventStore: EventStore, stream: string) {
  const events = await eventStore.readStream(stream);
  const last = events.at(-1);
  return last && { version: last.version, event: last as unknown as EmailClaimed | EmailReleased };
}

/** Claims the address for `memberId` unless someone holds it; returns who holds it afterwards. */
export async function claimEmail(eventStore: EventStore, email: string, memberId: string): Promise<string> {
  const stream = emailStream(email);
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const last = await lastOf(eventStore, stream);
    if (last?.event.type === 'EmailClaimed') return last.event.data.memberId;
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
export async function releaseEmail(eventStore: EventStore, email: string, memberId: string): Promise<void> {
  const stream = emailStream(email);
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
