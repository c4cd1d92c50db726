/**
 * Personal data sealed in the log (platform/personal-data): on every pair of stores, what the raw log holds, what
 * readers get before and after a member's keys are destroyed, and the erasure event destroying them on its way past.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, RecordedEvent } from '../../../platform/event-store/port';
import type { DocumentStore } from '../../../platform/document-store/port';
import { createPersonalDataKeys, PersonalDataErasedError, type PersonalDataKeys } from '../../../platform/personal-data/keys';
import { sealPersonalData } from '../../../platform/personal-data/sealed-event-store';
import { erasedEmail } from '../../../shared/personal-data';
import { backends, type Opened } from '../../support/adapters';

async function readAll(store: EventStore, streams: string[]): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (const stream of streams) events.push(...(await store.readStream(stream)));
  return events;
}

/** The registration of a member whose name, address and password hash are all personal data to seal. */
const registration = (id: string, email: string) => ({
  id,
  email,
  firstName: 'Ada',
  lastName: 'Sealed',
  role: 'member',
  passwordHash: 'scrypt$secret-hash',
  registeredAt: '2026-11-25T10:00:00.000Z',
});

async function subscribeUntil(store: EventStore, count: number, streams: Set<string>): Promise<RecordedEvent[]> {
  const controller = new AbortController();
  const seen: RecordedEvent[] = [];
  for await (const event of store.subscribeToAll({ after: 0, signal: controller.signal })) {
    if (streams.has(event.streamName)) seen.push(event);
    if (seen.length === count) controller.abort();
  }
  return seen;
}

describe.each(backends)('personal data sealed in the log: $name', ({ skip, events, documents }) => {
  let rawLog: Opened<EventStore>;
  let readModels: Opened<DocumentStore>;
  let keys: PersonalDataKeys;
  let log: EventStore;

  beforeAll(async () => {
    if (skip) return;
    rawLog = await events.open();
    readModels = await documents.open();
    keys = createPersonalDataKeys(readModels.store);
    log = sealPersonalData(rawLog.store, keys);
  });
  afterAll(async () => {
    await rawLog?.close();
    await readModels?.close();
  });

  async function registerWithPost(email: string) {
    const memberId = randomUUID();
    const postId = randomUUID();
    await log.append(`member-${memberId}`, [{ type: 'MemberRegistered', data: registration(memberId, email) }], {
      expectedVersion: 'no_stream',
    });
    await log.append(`member-${memberId}`, [{ type: 'MemberProfileChanged', data: { bio: 'I ran the night shift at WXYZ' } }], {
      expectedVersion: 0,
    });
    await log.append(
      `post-${postId}`,
      [
        {
          type: 'PostSubmitted',
          data: {
            id: postId,
            authorId: memberId,
            authorRole: 'member',
            content: 'My aircheck from 1974',
            mediaType: null,
            mediaUrl: null,
            mediaTitle: null,
            tags: ['radio'],
            submittedAt: '2026-11-25T10:01:00.000Z',
            approved: false,
          },
        },
      ],
      { expectedVersion: 'no_stream' },
    );
    await log.append(`post-${postId}`, [{ type: 'PostLiked', data: { memberId } }], { expectedVersion: 0 });
    return { memberId, postId, streams: [`member-${memberId}`, `post-${postId}`] };
  }

  it.skipIf(skip)('stores personal fields encrypted, and gives them back in place to readers', async () => {
    const email = `ada-${randomUUID()}@example.org`;
    const { memberId, streams } = await registerWithPost(email);

    const raw = JSON.stringify(await readAll(rawLog.store, streams));
    for (const secret of [email, 'Ada', 'Sealed', 'scrypt$secret-hash', 'night shift', 'aircheck']) expect(raw).not.toContain(secret);
    expect(raw).toContain(memberId);
    expect(raw).toContain('"tags":["radio"]');

    const [registered, profile, submitted, liked] = await readAll(log, streams);
    expect(registered!.data).toEqual(registration(memberId, email));
    expect(profile!.data).toEqual({ bio: 'I ran the night shift at WXYZ' });
    expect(submitted!.data).toMatchObject({ content: 'My aircheck from 1974', mediaUrl: null, tags: ['radio'] });
    expect(submitted!.data).not.toHaveProperty('_sealed');
    expect(liked!.data).toEqual({ memberId });
  });

  it.skipIf(skip)('after an erasure that keeps content, readers get placeholders for the account and the content as written', async () => {
    const { memberId, postId, streams } = await registerWithPost(`grace-${randomUUID()}@example.org`);
    await log.append(`member-${memberId}`, [{ type: 'MemberErased', data: { content: 'kept', at: '2026-11-25T11:00:00.000Z' } }], {
      expectedVersion: 1,
    });
    await keys.destroy(memberId, false);

    const [registered, profile, erased, submitted] = await readAll(log, streams);
    expect(registered!.data).toEqual({
      id: memberId,
      email: erasedEmail(memberId),
      firstName: 'Former',
      lastName: 'member',
      role: 'member',
      passwordHash: null,
      registeredAt: '2026-11-25T10:00:00.000Z',
    });
    expect(profile!.data).toEqual({ firstName: 'Former', lastName: 'member', profileImageUrl: null, bio: '' });
    expect(erased!.type).toBe('MemberErased');
    expect(submitted!.streamName).toBe(`post-${postId}`);
    expect(submitted!.data).toMatchObject({ authorId: memberId, content: 'My aircheck from 1974' });
  });

  it.skipIf(skip)('the erasure event destroys the keys as it passes through the subscription, content too when asked', async () => {
    const { memberId, streams } = await registerWithPost(`linus-${randomUUID()}@example.org`);
    await log.append(`member-${memberId}`, [{ type: 'MemberErased', data: { content: 'removed', at: '2026-11-25T11:00:00.000Z' } }], {
      expectedVersion: 1,
    });
    // Nothing destroyed the keys yet (the API process died right after the append): the subscription does it.
    const before = await readAll(log, streams);
    expect(before[0]!.data).toMatchObject({ firstName: 'Ada' });

    const seen = await subscribeUntil(log, 5, new Set(streams));
    // Events before the erasure passed while the keys still existed; from the erasure on, they are gone.
    expect(seen.map((event) => event.type)).toEqual([
      'MemberRegistered',
      'MemberProfileChanged',
      'PostSubmitted',
      'PostLiked',
      'MemberErased',
    ]);
    const after = await readAll(log, streams);
    expect(after[0]!.data).toMatchObject({ firstName: 'Former', lastName: 'member', email: erasedEmail(memberId) });
    expect(after.find((event) => event.type === 'PostSubmitted')!.data).toMatchObject({ content: '', mediaUrl: null, tags: ['radio'] });
    // A replay from the start sees nothing of it either.
    const replayed = await subscribeUntil(log, 5, new Set(streams));
    expect(JSON.stringify(replayed)).not.toMatch(/Ada|Sealed|night shift|aircheck|secret-hash/u);
  });

  it.skipIf(skip)('forgets the keys a replay read ahead when their owner is erased', async () => {
    const first = await registerWithPost(`grace-${randomUUID()}@example.org`);
    const next = await registerWithPost(`alan-${randomUUID()}@example.org`);
    // A process that starts a replay: meeting the first member's stream, it reads the keys made after it too.
    const replaying = createPersonalDataKeys(readModels.store);
    expect((await replaying.find(first.streams[0]!, true))?.key).toBeInstanceOf(Buffer);
    await replaying.destroy(next.memberId, true);
    for (const stream of next.streams) expect(await replaying.find(stream, true), stream).toMatchObject({ key: null });
    expect((await replaying.find(first.streams[1]!, true))?.key).toBeInstanceOf(Buffer);
  });

  it.skipIf(skip)('refuses to seal new personal data into a stream whose key was destroyed', async () => {
    const { memberId } = await registerWithPost(`hedy-${randomUUID()}@example.org`);
    await keys.destroy(memberId, false);
    await expect(
      log.append(`member-${memberId}`, [{ type: 'MemberProfileChanged', data: { firstName: 'Back' } }], { expectedVersion: 1 }),
    ).rejects.toBeInstanceOf(PersonalDataErasedError);
    // Events without personal data still go in.
    await log.append(`member-${memberId}`, [{ type: 'MemberUnsuspended', data: { by: memberId, at: '2026-11-25T12:00:00.000Z' } }], {
      expectedVersion: 1,
    });
  });

  it.skipIf(skip)('a guest subscription has a key no erasure destroys', async () => {
    const id = randomUUID();
    await log.append(
      `subscription-${id}`,
      [
        {
          type: 'SubscriptionRequested',
          data: {
            id,
            email: 'guest@example.org',
            memberId: null,
            subscriptionType: 'newsletter',
            frequency: 'weekly',
            tokenHash: 'h',
            confirmationRequired: true,
            at: '2026-11-25T10:00:00.000Z',
          },
        },
      ],
      { expectedVersion: 'no_stream' },
    );
    expect(JSON.stringify(await rawLog.store.readStream(`subscription-${id}`))).not.toContain('guest@example.org');
    expect((await log.readStream(`subscription-${id}`))[0]!.data).toMatchObject({ email: 'guest@example.org' });
  });

  it.skipIf(skip)('a guest subscription ended by its address owner’s erasure loses its key as the event passes', async () => {
    const id = randomUUID();
    const stream = `subscription-${id}`;
    await log.append(
      stream,
      [
        {
          type: 'SubscriptionRequested',
          data: {
            id,
            email: 'owner@example.org',
            memberId: null,
            subscriptionType: 'all',
            frequency: 'weekly',
            tokenHash: 'h',
            confirmationRequired: true,
            at: '2026-11-25T10:00:00.000Z',
          },
        },
      ],
      { expectedVersion: 'no_stream' },
    );
    await log.append(stream, [{ type: 'SubscriptionErased', data: { at: '2026-11-25T11:00:00.000Z' } }], { expectedVersion: 0 });
    await subscribeUntil(log, 2, new Set([stream]));
    expect((await log.readStream(stream))[0]!.data).toMatchObject({ email: `former-subscriber-${id}@erased.invalid` });
  });

  it.skipIf(skip)('seals a report’s reason with the reporter’s own key: it goes with the reporter, not with the author', async () => {
    const author = await registerWithPost(`ida-${randomUUID()}@example.org`);
    const reporter = await registerWithPost(`joan-${randomUUID()}@example.org`);
    const [postStream] = author.streams.slice(1);
    await log.append(
      postStream!,
      [
        {
          type: 'PostReported',
          data: { memberId: reporter.memberId, reason: 'Misleading dates, says Joan', at: '2026-11-25T10:02:00.000Z' },
        },
      ],
      { expectedVersion: 1 },
    );
    await log.append(
      postStream!,
      [{ type: 'PostRejected', data: { by: reporter.memberId, reason: 'Joan rejects it', at: '2026-11-25T10:03:00.000Z' } }],
      { expectedVersion: 2 },
    );
    const raw = JSON.stringify(await rawLog.store.readStream(postStream!));
    expect(raw).not.toContain('Misleading');
    expect(raw).not.toContain('Joan rejects');
    expect(raw).toContain(reporter.memberId);
    const opened = await log.readStream(postStream!);
    expect(opened[2]!.data).toEqual({ memberId: reporter.memberId, reason: 'Misleading dates, says Joan', at: '2026-11-25T10:02:00.000Z' });
    expect(opened[3]!.data).toEqual({ by: reporter.memberId, reason: 'Joan rejects it', at: '2026-11-25T10:03:00.000Z' });

    // The author's erasure leaves the reporter's words; the reporter's takes them.
    await keys.destroy(author.memberId, false);
    expect((await log.readStream(postStream!))[2]!.data).toMatchObject({ reason: 'Misleading dates, says Joan' });
    await keys.destroy(reporter.memberId, false);
    const erased = await log.readStream(postStream!);
    expect(erased[2]!.data).toEqual({ memberId: reporter.memberId, reason: null, at: '2026-11-25T10:02:00.000Z' });
    expect(erased[3]!.data).toEqual({ by: reporter.memberId, reason: null, at: '2026-11-25T10:03:00.000Z' });
    // A report without a reason seals nothing.
    await log.append(postStream!, [{ type: 'PostReported', data: { memberId: author.memberId, at: '2026-11-25T10:04:00.000Z' } }], {
      expectedVersion: 3,
    });
    expect((await rawLog.store.readStream(postStream!))[4]!.data).toEqual({ memberId: author.memberId, at: '2026-11-25T10:04:00.000Z' });
  });

  it.skipIf(skip)('reads a reason stored before reasons were sealed as it was stored', async () => {
    const { memberId, streams } = await registerWithPost(`kay-${randomUUID()}@example.org`);
    const commentId = randomUUID();
    // Written straight into the log, as an older version of the site did.
    await rawLog.store.append(
      `comment-${commentId}`,
      [
        {
          type: 'CommentReported',
          data: { targetType: 'post', targetId: streams[1]!.slice(5), memberId, reason: 'Old and plain', at: '2026-11-25T10:05:00.000Z' },
        },
      ],
      { expectedVersion: 'any' },
    );
    expect((await log.readStream(`comment-${commentId}`))[0]!.data).toMatchObject({ memberId, reason: 'Old and plain' });
  });
});
