/**
 * Read model `member_activity`: every event each member caused or that concerns them, as the log holds it (opened:
 * personal data in place), for their export (`GET /api/me/export`, docs/domain/members.md#export). An event concerns
 * a member when they acted (its metadata's actor), when it is in one of their own streams (their account, inbox,
 * bookmarks, calendar feed, subscriptions) or when it names them as its member (an RSVP, a place on the waiting list).
 * Hashes of secrets (password, link tokens) are held but not handed out: they are listed as held.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { RecordedEvent } from '../../platform/event-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { parseStreamName } from '../../shared/streams';
import { subscriptionsCollection } from '../subscriptions/subscriptions';

export const MEMBER_ACTIVITY = 'member_activity';

export type ActivityDocument = Positioned & {
  _id: string;
  memberId: string;
  stream: string;
  type: string;
  data: unknown;
  at: string;
};

export const memberActivity = (store: DocumentStore) => store.collection<ActivityDocument>(MEMBER_ACTIVITY);

/** Streams whose id is their member's. */
const OWN_STREAMS = new Set(['member', 'inbox', 'bookmarks', 'calendar']);
export const HELD_NOT_GIVEN = '(held, not included: a one-way hash)';

/** The event's data with every hash of a secret replaced by HELD_NOT_GIVEN. */
function withoutHashes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutHashes);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, /hash$/iu.test(key) && typeof inner === 'string' ? HELD_NOT_GIVEN : withoutHashes(inner)]));
}

async function concerned(recorded: RecordedEvent, store: DocumentStore): Promise<Set<string>> {
  const members = new Set<string>();
  if (recorded.metadata.actorId) members.add(recorded.metadata.actorId);
  const stream = parseStreamName(recorded.streamName);
  if (stream && OWN_STREAMS.has(stream.type)) members.add(stream.id);
  const data = recorded.data as { memberId?: unknown } | null;
  if (typeof data?.memberId === 'string') members.add(data.memberId);
  if (stream?.type === 'subscription') {
    const subscription = await subscriptionsCollection(store).findOne({ _id: stream.id }, { fields: ['memberId'] });
    if (subscription?.memberId) members.add(subscription.memberId);
  }
  return members;
}

export const memberActivityProjection: Projection = {
  name: 'member-activity',
  collections: [MEMBER_ACTIVITY],
  async setup(store) {
    await memberActivity(store).createIndex({ memberId: 1, _position: 1 });
  },
  async apply(recorded, { store }) {
    const activity = memberActivity(store);
    for (const memberId of await concerned(recorded, store)) {
      await applyToDocument(activity, `${memberId}:${recorded.id}`, recorded.position, () => ({
        memberId,
        stream: recorded.streamName,
        type: recorded.type,
        data: withoutHashes(recorded.data),
        at: recorded.createdAt.toISOString(),
      }));
    }
  },
};
