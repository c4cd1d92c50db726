/**
 * RSVPs under contention (1,000 members asking at once for the 100 places of one
 * event: every command serialised on one stream, 900 of them joining the waiting
 * list, checked to end with exactly 100 attending and 900 in line in arrival order)
 * beside the same number of commands spread over separate events, and
 * a calendar month query beside hand-written SQL over the same table.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import * as v from 'valibot';
import { createTestDatabase } from '../support/database';
import { createPostgresEventStore } from '../../platform/event-store/postgres';
import { createPostgresDocumentStore } from '../../platform/document-store/postgres';
import { createCommandHandler } from '../../platform/command-handler';
import { createProjectionProgress } from '../../platform/projections/progress';
import { calendarEventDecider } from '../../shared/events/event-stream';
import { fold } from '../../shared/domain';
import { EventSchema } from '../../shared/events/schemas';
import { calendarEvents, eventsProjection, searchText, type CalendarEventDocument } from '../../projections/events/events';
import { medianMs, printTable, rate } from './report';

const MEMBERS = 1000;
const PLACES = 100;
const now = new Date('2030-01-01T00:00:00Z');
const fields = v.parse(EventSchema, {
  title: 'Reunion',
  startDate: '2030-06-01T18:00:00Z',
  endDate: '2030-06-01T21:00:00Z',
  maxAttendees: PLACES,
});

export async function run() {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 12 });
  try {
    const eventStore = await createPostgresEventStore({ pool });
    const store = createPostgresDocumentStore({ pool });
    // Read models are not followed here: this measures the write path, so answers do not wait for them.
    const progress = createProjectionProgress({ store, runnerName: 'bench', local: true });
    const handle = createCommandHandler({ eventStore, progress, readYourWritesTimeoutMs: 0 });
    const staff = { id: 'staff', role: 'staff' as const };
    const schedule = async () => {
      const id = randomUUID();
      await handle(calendarEventDecider, `event-${id}`, { type: 'ScheduleEvent', data: { id, fields }, metadata: { now, actor: staff } });
      return id;
    };
    const members = Array.from({ length: MEMBERS }, (_, i) => ({ id: `member-${i}`, role: 'member' as const }));
    const rsvp = (eventId: string, actor: (typeof members)[number]) =>
      handle(calendarEventDecider, `event-${eventId}`, { type: 'SetRsvp', data: { status: 'attending' }, metadata: { now, actor } }).catch(
        () => undefined,
      );

    const hot = await schedule();
    const contended = await rate(MEMBERS, async () => {
      await Promise.all(members.map((member) => rsvp(hot, member)));
    });
    const decided = fold(calendarEventDecider, (await eventStore.readStream(`event-${hot}`)) as never);
    const attending = [...decided.rsvps].filter(([, status]) => status === 'attending').map(([id]) => id);
    const arrivals = members.map((member) => member.id);
    if (
      attending.length !== PLACES ||
      decided.waiting.join() !== arrivals.slice(PLACES).join() ||
      attending.join() !== arrivals.slice(0, PLACES).join()
    )
      throw new Error(`The rush did not end with ${PLACES} attending and the rest in line in arrival order`);
    const spread = await Promise.all(members.map(() => schedule()));
    const uncontended = await rate(MEMBERS, async () => {
      await Promise.all(members.map((member, i) => rsvp(spread[i]!, member)));
    });

    await eventsProjection.setup!(store);
    const events = calendarEvents(store);
    const docs: CalendarEventDocument[] = Array.from({ length: 20_000 }, (_, i) => ({
      ...fields,
      _id: randomUUID(),
      _position: i + 1,
      title: `Event ${i}`,
      startDate: new Date(Date.UTC(2020, 0, 1) + i * 3 * 3600 * 1000).toISOString(),
      endDate: new Date(Date.UTC(2020, 0, 1) + i * 3 * 3600 * 1000 + 3600 * 1000).toISOString(),
      status: i % 10 === 0 ? 'pending' : 'approved',
      isApproved: i % 10 !== 0,
      isFeatured: false,
      organizerId: 'staff',
      organizer: { firstName: 'S', lastName: 'T', email: 's@example.org', role: 'staff', profileImageUrl: null },
      search: searchText({ ...fields, title: `Event ${i}` }),
      attendees: { attending: 0, maybe: 0, notAttending: 0 },
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    }));
    for (let i = 0; i < docs.length; i += 2000) await events.insertMany(docs.slice(i, i + 2000));
    await pool.query('ANALYZE');
    const from = '2022-03-01T00:00:00.000Z';
    const to = '2022-04-01T00:00:00.000Z';
    const month = await medianMs(30, () =>
      events.find({ status: 'approved', isPublic: true, startDate: { $gte: from, $lt: to } }, { sort: { startDate: 1, _id: 1 } }),
    );
    // What a signed-in member's calendar asks: public approved events plus their own, pending ones too.
    const memberMonth = await medianMs(30, () =>
      events.find(
        {
          $and: [
            { $or: [{ status: 'approved', isPublic: true }, { organizerId: 'staff' }] },
            { status: { $ne: 'rejected' } },
            { startDate: { $gte: from } },
            { startDate: { $lt: to } },
          ],
        },
        { sort: { startDate: 1, _id: 1 } },
      ),
    );
    const raw = await medianMs(30, () =>
      pool.query(
        `SELECT doc FROM rm_event_calendar WHERE doc->>'status' = 'approved' AND doc->'isPublic' = 'true' AND doc->>'startDate' >= $1 AND doc->>'startDate' < $2 ORDER BY doc->>'startDate', id`,
        [from, to],
      ),
    );
    printTable([
      {
        figure: `RSVP, ${MEMBERS} members for ${PLACES} places of one event (${MEMBERS - PLACES} wait)`,
        value: contended,
        unit: 'commands/s',
        baseline: 'same, one event each',
        baselineValue: uncontended,
      },
      {
        figure: 'calendar month (20,000 events), median (closed loop)',
        value: month,
        unit: 'ms',
        baseline: 'hand-written SQL, no index',
        baselineValue: raw,
      },
      {
        figure: 'calendar month as a member (own events too), median (closed loop)',
        value: memberMonth,
        unit: 'ms',
        baseline: 'hand-written SQL, no index',
        baselineValue: raw,
      },
    ]);
    await eventStore.close();
  } finally {
    await pool.end();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
