/**
 * Read model `member_activity`: where in the log each member's events are (every event they caused or that concerns
 * them), for their export (`GET /api/me/export`, docs/domain/members.md#export), which reads those events back from
 * the log as it holds them now: opened, personal data in place, and without what an erasure took since (an entry
 * copying the event would keep another member's erased words, a post staff edited, say). An event concerns a member
 * when they acted (its metadata's actor), when it is in one of their own streams (their account, inbox, bookmarks,
 * calendar feed, subscriptions), when it names them as its member (an RSVP, a place on the waiting list) or when it
 * says they wrote it: the author of a post, blog post or comment, the organizer of an event, whoever appended it (the
 * demo seed appended without an actor in the metadata, and its members' posts were missing). Hashes of secrets
 * (password, link tokens) are held but not handed out: they are listed as held.
 * Whose each subscription is (its later events do not say) is kept in `member_activity_subscriptions`. An erased
 * member's activity goes.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { EventStore, RecordedEvent } from '../../platform/event-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { parseStreamName } from '../../shared/streams';

export const MEMBER_ACTIVITY = 'member_activity';
export const MEMBER_ACTIVITY_SUBSCRIPTIONS = 'member_activity_subscriptions';

/**
 * One event of a member's: its place in the log, under `<member id>:<position>` (the position padded to 16 digits, as
 * far as a position goes), so that a member's entries are one range of the primary key, in the log's order: no other
 * index to keep up as entries are written (a third of the rows a replay writes).
 */
type ActivityDocument = Positioned & {
  _id: string;
  stream: string;
  version: number;
};
/**
 * An entry as version 3 wrote it: a copy of the event. The live collection holds these after a deployment of a later
 * version until its rebuild (beside it) switches, and the export hands them out as they are meanwhile.
 */
type CopiedEntry = Positioned & { _id: string; memberId: string; stream: string; type: string; data: unknown; at: string };

const memberActivity = (store: DocumentStore) => store.collection<ActivityDocument>(MEMBER_ACTIVITY);
/** A member's entries, whichever version wrote them: every version's ids begin with the member's id and a colon. */
const entriesOf = (memberId: string) => ({ _id: { $gt: `${memberId}:`, $lt: `${memberId};` } });
const entryId = (memberId: string, position: number) => `${memberId}:${String(position).padStart(16, '0')}`;
/** A member's subscription (a guest's has none), by the subscription's id. */
type SubscriptionOwner = Positioned & { _id: string; memberId: string };
const subscriptionOwners = (store: DocumentStore) => store.collection<SubscriptionOwner>(MEMBER_ACTIVITY_SUBSCRIPTIONS);

/** Streams whose id is their member's. */
const OWN_STREAMS = new Set(['member', 'inbox', 'bookmarks', 'calendar']);
/** Streams whose first event names its author (`authorId`); an event's names its organizer (`organizerId`). */
const AUTHORED_STREAMS = new Set(['post', 'blog', 'comment']);
export const HELD_NOT_GIVEN = '(held, not included: a one-way hash)';

const HASH_KEY = /hash$/iu;

/** Whether the event's data holds a hash of a secret anywhere (most events hold none, and are kept as they are). */
function holdsHash(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsHash);
  if (value === null || typeof value !== 'object') return false;
  for (const [key, inner] of Object.entries(value)) if ((HASH_KEY.test(key) && typeof inner === 'string') || holdsHash(inner)) return true;
  return false;
}

/** The event's data with every hash of a secret replaced by HELD_NOT_GIVEN. */
function withoutHashes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutHashes);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      HASH_KEY.test(key) && typeof inner === 'string' ? HELD_NOT_GIVEN : withoutHashes(inner),
    ]),
  );
}

async function concerned(recorded: RecordedEvent, store: DocumentStore): Promise<Set<string>> {
  const members = new Set<string>();
  if (recorded.metadata.actorId) members.add(recorded.metadata.actorId);
  const stream = parseStreamName(recorded.streamName);
  if (stream && OWN_STREAMS.has(stream.type)) members.add(stream.id);
  const data = recorded.data as { memberId?: unknown; authorId?: unknown; organizerId?: unknown } | null;
  if (typeof data?.memberId === 'string') members.add(data.memberId);
  if (stream && AUTHORED_STREAMS.has(stream.type) && typeof data?.authorId === 'string') members.add(data.authorId);
  if (stream?.type === 'event' && typeof data?.organizerId === 'string') members.add(data.organizerId);
  if (stream?.type === 'subscription') {
    // Only its request names the member: the owner is kept from it for the subscription's later events.
    if (typeof data?.memberId === 'string')
      await applyToDocument(subscriptionOwners(store), stream.id, recorded.position, () => ({ memberId: data.memberId as string }));
    const owner = await subscriptionOwners(store).findOne({ _id: stream.id });
    if (owner) members.add(owner.memberId);
  }
  return members;
}

/** Everything held for an erased member goes, the record of their erasure too. */
async function forget(store: DocumentStore, memberId: string, at: number) {
  await memberActivity(store).deleteMany(entriesOf(memberId));
  for (const { _id } of await subscriptionOwners(store).find({ memberId }, { fields: ['_id'] }))
    await applyToDocument(subscriptionOwners(store), _id, at, () => null);
}

export const memberActivityProjection: Projection = {
  name: 'member-activity',
  // 3: authors and organizers named in the data count (events appended without an actor, as the demo seed did).
  // 4: entries say where the event is, and the export reads it from the log (they held a copy, which kept what an
  // erasure took from the log).
  // 5: entries are kept by member and position in their _id, without an index of their own.
  version: 5,
  collections: [MEMBER_ACTIVITY, MEMBER_ACTIVITY_SUBSCRIPTIONS],
  async setup(store) {
    await subscriptionOwners(store).createIndex({ memberId: 1 });
  },
  async apply(recorded, { store }) {
    const stream = parseStreamName(recorded.streamName);
    if (stream?.type === 'member' && recorded.type === 'MemberErased') return forget(store, stream.id, recorded.position);
    const members = await concerned(recorded, store);
    if (members.size === 0) return;
    // An entry never changes, so it is written without reading first (one write per event and member, as a replay of
    // the whole log makes them); the same event applied again after a crash finds it there, as new, and moves on.
    await memberActivity(store).savePositioned({
      put: [...members].map((memberId) => ({
        _id: entryId(memberId, recorded.position),
        _position: recorded.position,
        stream: recorded.streamName,
        version: recorded.version,
      })),
      remove: [],
    });
  },
};

/** An event of a member's activity, as the export hands it out. */
interface ActivityEntry {
  at: string;
  stream: string;
  type: string;
  data: unknown;
}

/**
 * A member's activity, in the log's order: each event read from the log as it is now (opened by `eventStore`, the
 * sealing store), every hash of a secret replaced by HELD_NOT_GIVEN.
 */
export async function memberActivityOf(store: DocumentStore, eventStore: EventStore, memberId: string): Promise<ActivityEntry[]> {
  const entries = await store
    .collection<ActivityDocument | CopiedEntry>(MEMBER_ACTIVITY)
    .find(entriesOf(memberId), { sort: { _position: 1, _id: 1 } });
  const placed = entries.filter((entry): entry is ActivityDocument => 'version' in entry);
  const events = await eventStore.readEvents(placed.map(({ stream, version }) => ({ streamName: stream, version })));
  const eventOf = new Map(placed.map((entry, i) => [entry, events[i]]));
  return entries.flatMap((entry) => {
    if (!('version' in entry)) return [{ at: entry.at, stream: entry.stream, type: entry.type, data: entry.data }];
    const event = eventOf.get(entry);
    if (!event) return [];
    // Copied only where a hash is replaced.
    const data = holdsHash(event.data) ? withoutHashes(event.data) : event.data;
    return [{ at: event.createdAt.toISOString(), stream: event.streamName, type: event.type, data }];
  });
}
